/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
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
   * The pinned shortcut works out the loads once and re-evaluates only the links they touch, and
   * asked again about a plan of an earlier epoch, only the links changed since; both must give the
   * full evaluation's plan whatever bandwidth earlier coflows have taken in between.
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
      CoflowPlan earlier = null; // a plan of some earlier epoch, asked again
      int earlierEpoch = -1;
      for (int round = 0; round < 6; round++) {
        String where = "trial " + trial + ", round " + round;
        CoflowPlan full = PlanEvaluator.evaluate(d, hostOf.clone(), net);
        CoflowPlan fast = PlanEvaluator.evaluatePinned(d, net);
        assertEquals(full.finish(), fast.finish(), 0, where);
        assertArrayEquals(full.hostOf(), fast.hostOf());
        assertArrayEquals(full.received(), fast.received(), 0);
        assertArrayEquals(full.sent(), fast.sent(), 0);
        if (earlier != null) {
          CoflowPlan again = PlanEvaluator.reevaluatePinned(earlier, earlierEpoch, net);
          assertEquals(full.finish(), again.finish(), 0, where + ", from epoch " + earlierEpoch);
          assertArrayEquals(full.received(), again.received(), 0);
        }
        if (earlier == null || rnd.nextBoolean()) {
          earlier = fast;
          earlierEpoch = net.epoch();
        }
        // Another coflow is served: it takes bandwidth of a link, now or later, and a new epoch
        // begins (as in Algorithm 1, where the coflow served was planned in the epoch it ends).
        int j = rnd.nextInt(m);
        LinkProfile link = rnd.nextBoolean() ? net.in(j) : net.out(j);
        switch (rnd.nextInt(3)) {
          case 0 -> link.takeNow(link.rateNow() * rnd.nextDouble());
          case 1 -> link.reserve(rnd.nextDouble() * 5, 5 + rnd.nextDouble() * 20, rnd.nextInt(50));
          default -> link.consume(rnd.nextInt(500));
        }
        net.nextEpoch();
      }
    }
  }

  private static CoflowDemand pinned(Coflow c, int[] hostOf, List<Host> hosts) {
    double[] remaining = c.flows().stream().mapToDouble(Flow::bytes).toArray();
    int[] src = c.flows().stream().mapToInt(Flow::src).toArray();
    int[] reducer = c.flows().stream().mapToInt(Flow::reducer).toArray();
    boolean[] pinned = new boolean[hostOf.length];
    Arrays.fill(pinned, true);
    ActiveCoflow a = new ActiveCoflow(0, c, remaining, 0, hostOf, pinned, 0, 0, src, reducer, null);
    CoflowShape shape = new CoflowShape(a);
    return new CoflowDemand(a, shape, shape.sendersMayHostReducers(hosts));
  }
}
