/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random multi-coflow instances (arrivals over time, locality, scarce slots, pinned
 * reducers): every scheme's schedule passes the independent feasibility checker.
 */
class RandomScheduleFeasibilityTest {

  @Test
  void everyScheduleIsFeasible() {
    Random rnd = new Random(7L);
    int schedules = 0;
    for (int trial = 0; trial < 1500; trial++) {
      Instance inst = RandomInstances.multiCoflow(rnd);
      for (String scheme : Schemes.names()) {
        if (scheme.equals("rpc-faithful") && trial % 5 != 0) {
          continue; // an LP per plan: a sample suffices
        }
        for (boolean wc : new boolean[] {false, true}) {
          SchemeOptions options = new SchemeOptions(trial, 0.5 + trial % 3, wc);
          Schedule s = ScheduleRunner.run(inst, Schemes.create(scheme, options));
          var violations = FeasibilityChecker.violations(inst, s);
          assertTrue(violations.isEmpty(), scheme + " trial " + trial + ": " + violations);
          assertEquals(inst.coflows().size(), s.coflows().size());
          schedules++;
        }
      }
    }
    System.out.println("feasible schedules checked: " + schedules);
  }
}
