package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/**
 * {@code rpc} keeps a reducer off a host where it alone would take more than four times its
 * coflow's isolated lower bound, even when the fast hosts are busy for a while.
 */
class SlowHostRuleTest {

  private static final int FAST = 1;
  private static final int SLOW = 2;

  /**
   * Twelve one-second coflows pinned to the fast host (100 B/s), smaller than B, so served first; B
   * has one reducer of 150 bytes: 1.5 s on the fast host, its isolated bound.
   */
  private static Schedule run(double slowBytesPerSec) {
    List<Host> hosts =
        List.of(
            Host.sender("s", 1e6),
            Host.of("fast", 100, 100),
            Host.of("slow", slowBytesPerSec, slowBytesPerSec));
    List<Coflow> coflows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      coflows.add(PaperExamples.pinned("A" + i, 0, new double[][] {{0, FAST, 100}}));
    }
    coflows.add(new Coflow("B", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 150))));
    return PaperExamples.run("slow host", "rpc", new Instance(hosts, coflows));
  }

  @Test
  void aReducerWaitsForTheFastHostRatherThanTakeOneFourTimesTooSlow() {
    // On the 20 B/s host B would end at 7.5 s, sooner than 12 + 1.5 s on the fast one; but 7.5 s
    // is five times its 1.5 s bound, and started there it could not move.
    Schedule s = run(20);
    assertEquals(FAST, s.coflows().get(12).hostOf()[0]);
    assertEquals(13.5, s.coflows().get(12).cct(), 1e-9);
  }

  @Test
  void aSlowHostWithinTheBoundIsTakenNow() {
    Schedule s = run(40); // 3.75 s there: within four times 1.5 s
    assertEquals(SLOW, s.coflows().get(12).hostOf()[0]);
    assertEquals(3.75, s.coflows().get(12).cct(), 1e-9);
  }
}
