/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.PairwisePolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.CoflowSchedule;
import org.coflowshuffle.core.schedule.PairRunner;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * One scheme on one instance through the exact event-driven runner, the same policy objects the
 * live coordinator uses: per-coflow completion times and the time of every decision. A scheme whose
 * rates go by host pair ({@link PairwisePolicy}, per-flow fair sharing) runs by pairs where the
 * instance allows it ({@link PairRunner#accepts}): the same completion times up to rounding,
 * without moving every flow in flight at every event.
 */
public final class Simulation {

  private Simulation() {}

  /**
   * @param cct completion time per coflow, in instance order
   * @param decisionMicros time of each decision
   * @param wallSeconds time the whole run took
   */
  public record Outcome(String scheme, double[] cct, double[] decisionMicros, double wallSeconds) {}

  /** The exact run: the policy decides at every event. */
  public static Outcome run(Instance instance, String scheme, SchemeOptions options) {
    return run(instance, scheme, options, 0);
  }

  /**
   * A run whose flow endings wake the policy at the given resolution (see {@link
   * ScheduleRunner#completionTimes(Instance, org.coflowshuffle.core.policy.SchedulingPolicy,
   * double)}); 0 is exact.
   */
  public static Outcome run(
      Instance instance, String scheme, SchemeOptions options, double resolution) {
    TimedPolicy timed = TimedPolicy.of(Schemes.create(scheme, options), Integer.MAX_VALUE);
    long start = System.nanoTime();
    Schedule schedule =
        timed instanceof PairwisePolicy pairwise && PairRunner.accepts(instance)
            ? PairRunner.completionTimes(instance, pairwise, resolution)
            : ScheduleRunner.completionTimes(instance, timed, resolution);
    double wall = (System.nanoTime() - start) / 1e9;
    double[] cct = new double[schedule.coflows().size()];
    for (CoflowSchedule c : schedule.coflows()) {
      cct[c.coflow()] = c.cct();
    }
    return new Outcome(scheme, cct, timed.micros(), wall);
  }
}
