package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 1 stops planning once no coflow left may receive now; that must change no rate and no
 * placement of a coflow that moves (against the same scheme planning every coflow), only leave the
 * waiting ones unplaced, and {@code placeAll} must still place them.
 */
class SrtfEarlyStopTest {

  private static final double[] GBPS = {0.1, 0.2, 0.5, 1, 10, 40};

  /** Decides with and without the early stop on every view, compares, and goes on with it. */
  private static final class Compared implements SchedulingPolicy {
    final SchedulingPolicy stops;
    final SchedulingPolicy plansAll;
    int decisions;
    int leftUnplaced; // coflows the early stop left without a host that placeAll placed
    ClusterView first;

    Compared(String scheme, long seed) {
      stops = Schemes.create(scheme, new SchemeOptions(seed, 1e9, false, false));
      plansAll =
          ((SrtfPolicy) Schemes.create(scheme, new SchemeOptions(seed, 1e9, false)))
              .planningEvery();
    }

    @Override
    public String name() {
      return stops.name();
    }

    @Override
    public Decision decide(ClusterView view) {
      first = first == null ? view : first;
      Decision a = stops.decide(view);
      Decision b = plansAll.decide(view);
      for (int i = 0; i < view.coflows().size(); i++) {
        CoflowAssignment x = a.assignments().get(i);
        CoflowAssignment y = b.assignments().get(i);
        String where = "decision " + decisions + " at " + view.now() + ", coflow " + i;
        assertArrayEquals(y.rates(), x.rates(), where);
        if (Arrays.stream(x.rates()).anyMatch(r -> r > 0)) {
          assertArrayEquals(y.hostOf(), x.hostOf(), where);
        } else if (!Arrays.equals(x.hostOf(), y.hostOf())) {
          leftUnplaced++;
        }
      }
      assertEquals(b.wakeUpAt(), a.wakeUpAt());
      decisions++;
      return a;
    }
  }

  /**
   * As {@code simulate --workload rpc-synthetic} builds it, small: send-only hosts, reducer hosts
   * with NICs from the paper's set (some with a slot limit when {@code slots}), Poisson arrivals,
   * every sender to every reducer, now and then a reducer pinned or one with nothing to fetch.
   */
  private static Instance synthetic(Random rnd, boolean slots) {
    int senders = 2 + rnd.nextInt(3);
    int receivers = 3 + rnd.nextInt(5);
    List<Host> hosts = new ArrayList<>();
    for (int u = 0; u < senders; u++) {
      hosts.add(Host.sender("S" + u, 40 * 1.25e8));
    }
    for (int j = 0; j < receivers; j++) {
      double b = GBPS[rnd.nextInt(GBPS.length)] * 1.25e8;
      int limit = slots && rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(2) : Host.UNLIMITED_SLOTS;
      hosts.add(new Host("R" + j, b, b, limit, true));
    }
    List<Coflow> coflows = new ArrayList<>();
    double t = 0;
    for (int c = 0; c < 4 + rnd.nextInt(8); c++) {
      t += -Math.log(1 - rnd.nextDouble()) / 5;
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      double size = Math.exp(rnd.nextDouble() * 8) * 1e7; // 10 MB to 30 GB, skewed small
      int n = 1 + rnd.nextInt(receivers);
      for (int r = 0; r < n; r++) {
        boolean pin = !slots && rnd.nextInt(8) == 0;
        reducers.add(
            new Reducer(
                "C" + c + ".r" + r, pin ? senders + rnd.nextInt(receivers) : Reducer.NOT_PINNED));
        for (int u = 0; u < senders && rnd.nextInt(12) > 0; u++) { // now and then none
          flows.add(new Flow(u, r, size * (0.5 + rnd.nextDouble()) / (n * senders)));
        }
      }
      coflows.add(new Coflow("C" + c, t, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }

  private static void sameSchedules(String scheme, int trials, boolean slots) {
    Random rnd = new Random(11);
    int decisions = 0;
    int leftUnplaced = 0;
    for (int trial = 0; trial < trials; trial++) {
      Instance inst = synthetic(rnd, slots);
      Compared compared = new Compared(scheme, trial);
      Schedule s = ScheduleRunner.run(inst, compared);
      Schedule full =
          ScheduleRunner.run(inst, Schemes.create(scheme, new SchemeOptions(trial, 1e9, false)));
      for (int c = 0; c < inst.coflows().size(); c++) {
        assertEquals(full.coflows().get(c).cct(), s.coflows().get(c).cct(), "trial " + trial);
      }
      decisions += compared.decisions;
      leftUnplaced += compared.leftUnplaced;
    }
    System.out.printf(
        "%s: %d decisions, %d waiting coflows left unplaced%n", scheme, decisions, leftUnplaced);
    assertTrue(leftUnplaced > 0, "the early stop never happened: the test checks nothing");
  }

  @Test
  void rpcStopsEarlyWithTheSameRatesAndPlacementsOfWhatMoves() {
    sameSchedules("rpc", 400, false);
  }

  @Test
  void rpcStopsEarlyWithTheSameRatesWhereSlotsAreScarce() {
    sameSchedules("rpc", 200, true);
  }

  @Test
  void rpcFaithfulStopsEarlyWithTheSameRates() {
    sameSchedules("rpc-faithful", 40, false);
  }

  @Test
  void aWaitingCoflowThatMayNotUseTheSlowHostIsLeftUnplacedUnlessAllArePlaced() {
    // A holds the fast host for 1 s; B (150 B) would take 7.5 s on the slow host, five times its
    // bound of 1.5 s, so it may not go there and gets nothing now.
    List<Host> hosts =
        List.of(Host.sender("s", 1e6), Host.of("fast", 100, 100), Host.of("slow", 20, 20));
    Coflow a = PaperExamples.pinned("A", 0, new double[][] {{0, 1, 100}});
    Coflow b = new Coflow("B", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 150)));
    Compared compared = new Compared("rpc", 1);
    ScheduleRunner.run(new Instance(hosts, List.of(a, b)), compared);
    assertEquals(0, compared.first.now());
    Compared fresh = new Compared("rpc", 1);
    assertArrayEquals(
        new int[] {-1}, fresh.stops.decide(compared.first).assignments().get(1).hostOf());
    assertArrayEquals(
        new int[] {1},
        Schemes.create("rpc", new SchemeOptions(1, 1e9, false, true))
            .decide(compared.first)
            .assignments()
            .get(1)
            .hostOf());
  }
}
