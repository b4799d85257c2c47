package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.junit.jupiter.api.Test;

class PlanEvaluatorTest {

  /**
   * The pinned shortcut works out the loads once and re-evaluates only the links they touch; it
   * must give the full evaluation's plan whatever bandwidth earlier coflows have taken in between.
   */
  @Test
  void pinnedPlansMatchTheFullEvaluationAsBandwidthIsTaken() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 100; trial++) {
      int m = 2 + rnd.nextInt(8);
      List<Host> hosts = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        hosts.add(Host.of("h" + j, 1 + rnd.nextInt(100), 1 + rnd.nextInt(100)));
      }
      int reducers = 1 + rnd.nextInt(5);
      List<Reducer> rs = new ArrayList<>();
      int[] hostOf = new int[reducers];
      for (int r = 0; r < reducers; r++) {
        rs.add(Reducer.free("r" + r));
        hostOf[r] = rnd.nextInt(m);
      }
      List<Flow> flows = new ArrayList<>();
      for (int k = 0; k < 1 + rnd.nextInt(12); k++) {
        flows.add(new Flow(rnd.nextInt(m), rnd.nextInt(reducers), 1 + rnd.nextInt(1000)));
      }
      CoflowDemand d = pinned(new Coflow("c", 0, rs, flows), hostOf, hosts);
      NetworkProfile net = new NetworkProfile(0, hosts, new int[m]);
      for (int round = 0; round < 4; round++) {
        CoflowPlan full = PlanEvaluator.evaluate(d, hostOf.clone(), net);
        CoflowPlan fast = PlanEvaluator.evaluatePinned(d, net);
        assertEquals(full.finish(), fast.finish(), 0, "trial " + trial + ", round " + round);
        assertArrayEquals(full.hostOf(), fast.hostOf());
        assertArrayEquals(full.received(), fast.received(), 0);
        assertArrayEquals(full.sent(), fast.sent(), 0);
        int j = rnd.nextInt(m); // another coflow takes part of a link now
        net.in(j).takeNow(net.in(j).rateNow() * rnd.nextDouble());
        net.out(j).takeNow(net.out(j).rateNow() * rnd.nextDouble());
      }
    }
  }

  private static CoflowDemand pinned(Coflow c, int[] hostOf, List<Host> hosts) {
    double[] remaining = c.flows().stream().mapToDouble(Flow::bytes).toArray();
    int[] src = c.flows().stream().mapToInt(Flow::src).toArray();
    int[] reducer = c.flows().stream().mapToInt(Flow::reducer).toArray();
    boolean[] pinned = new boolean[hostOf.length];
    Arrays.fill(pinned, true);
    ActiveCoflow a = new ActiveCoflow(0, c, remaining, 0, hostOf, pinned, 0, 0, src, reducer);
    CoflowShape shape = new CoflowShape(c);
    return new CoflowDemand(a, shape, shape.sendersMayHostReducers(hosts));
  }
}
