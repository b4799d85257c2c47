/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.junit.jupiter.api.Test;

/**
 * The time {@link SlowHostRule} allows a reducer: four times the coflow's bound without its pinned
 * reducers, or the time those need, not four times that. Otherwise each reducer started on a slower
 * host lets the next go to a slower one still, down to the slowest.
 */
class SlowHostRuleBoundTest {

  private static final int MID = 2;

  @Test
  void aPinnedReducerAllowsOthersItsOwnTimeOnly() {
    // A sender; fast (100 B/s), mid (25 B/s) and slow (7 B/s) receivers. r0 (100 B) runs on mid:
    // 4 s. Without it the coflow needs 200 / 132 s at least, so r1 (100 B) may take 4 x 200/132
    // = 6.06 s: hosts of 16.5 B/s and up, not slow, where it would take 14.3 s (within 4 x 4 s).
    List<Host> hosts =
        List.of(
            Host.sender("s", 1e6),
            Host.of("fast", 100, 100),
            Host.of("mid", 25, 25),
            Host.of("slow", 7, 7));
    Coflow c =
        new Coflow(
            "c",
            0,
            List.of(Reducer.free("r0"), Reducer.free("r1")),
            List.of(new Flow(0, 0, 100), new Flow(0, 1, 100)));
    ActiveCoflow a =
        new ActiveCoflow(
            0,
            c,
            new double[] {100, 100},
            0,
            new int[] {MID, -1},
            new boolean[] {true, false},
            0,
            0,
            new int[] {0, 0},
            new int[] {0, 1},
            null);
    CoflowShape shape = new CoflowShape(a);
    CoflowDemand d = new CoflowDemand(a, shape, shape.sendersMayHostReducers(hosts));
    NetworkProfile net = new NetworkProfile(0, hosts, new int[4]);
    assertEquals(4.0, PlanEvaluator.pinnedBound(d, net), 1e-12);
    assertEquals(200.0 / 132, PlanEvaluator.unpinnedBound(d, net), 1e-12);
    assertEquals(4.0, PlanEvaluator.lowerBound(d, net), 1e-12);
    assertEquals(16.5, SlowHostRule.slowestAllowed(d, net)[1], 1e-9);
  }
}
