/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/** The paper's motivating example (Fig. 1): each scheme against the figure's numbers. */
class Fig1Test {

  private static Schedule run(String scheme, Instance instance) {
    Schedule s = ScheduleRunner.run(instance, Schemes.create(scheme, SchemeOptions.defaults()));
    FeasibilityChecker.check(instance, s);
    System.out.printf(
        "Fig. 1 %-13s C1 %.3f s, C2 %.3f s, average %.4f s%n",
        scheme, s.coflows().get(0).cct(), s.coflows().get(1).cct(), s.averageCct());
    return s;
  }

  @Test
  void rpcAndThePaperAsWrittenReachTheOptimum() {
    for (String scheme : new String[] {"rpc", "rpc-faithful"}) {
      Schedule s = run(scheme, Fig1.instance());
      assertEquals(1.5, s.coflows().get(0).cct(), 1e-9, scheme);
      assertEquals(3.0, s.coflows().get(1).cct(), 1e-9, scheme);
      assertEquals(2.25, s.averageCct(), 1e-9, scheme);
    }
  }

  @Test
  void fairSharingWithTheBestPlacementTakesThreeSeconds() {
    // Fig. 1(b): C1's 2 Gb and C2's 2 Gb on M1; 1.5 Gb reducers on M2; the rest on M3.
    Schedule s = run("fair", Fig1.instance(new int[] {2, 1, 0}, new int[] {1, 2, 0}));
    assertEquals(3.0, s.coflows().get(0).cct(), 1e-9);
    assertEquals(3.0, s.coflows().get(1).cct(), 1e-9);
  }

  @Test
  void srtfWithLargestReducersOnSlowHostsTakesTwoAndFourSeconds() {
    // Fig. 1(a): the largest reducer of each coflow on a 1 Gbps host.
    Instance pinned = Fig1.instance(new int[] {0, 2, 1}, new int[] {0, 1, 2});
    for (String scheme : new String[] {"rpc", "varys"}) {
      Schedule s = run(scheme, pinned);
      assertEquals(2.0, s.coflows().get(0).cct(), 1e-9, scheme);
      assertEquals(4.0, s.coflows().get(1).cct(), 1e-9, scheme);
    }
  }

  @Test
  void everySchemeGivesAFeasibleSchedule() {
    for (String scheme : Schemes.names()) {
      Schedule s = run(scheme, Fig1.instance());
      assertEquals(2, s.coflows().size());
    }
  }
}
