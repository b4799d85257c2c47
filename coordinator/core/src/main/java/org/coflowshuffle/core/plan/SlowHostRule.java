/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * Keeps a reducer off hosts so slow that it alone would take far longer there than its whole coflow
 * needs at best: reducer n may go to host j only if w_n / b_j is at most {@link #FACTOR} times the
 * coflow's isolated lower bound ({@link PlanEvaluator#lowerBound} without its pinned reducers), or
 * than its pinned reducers need on their hosts, which it would not delay. Placement against the
 * bandwidth other coflows hold would otherwise put the reducers of a coflow that is not served
 * first on the slow hosts free now; once started there they cannot move, and under a stream of
 * arrivals the coflow then runs for as long as its slowest host needs, long after the fast hosts it
 * waited for have freed (docs/results.md, "Against the bound and the baselines"). Reducers for
 * which no allowed host has a slot are placed without the rule, or, where reducers may wait for a
 * later wave, left for one ({@link SlotAwarePlacer#placeKeepingRule}). Where the coflow has
 * locality the bound is trivial and the rule is off.
 */
final class SlowHostRule {

  /** How many times the coflow's lower bound one reducer may take alone on its host. */
  static final double FACTOR = 4;

  private SlowHostRule() {}

  /**
   * Per reducer, the least incoming bandwidth of a host it may go to, bytes per second; null when
   * the rule does not apply.
   */
  static double[] slowestAllowed(CoflowDemand d, NetworkProfile net) {
    // The reducers already pinned count only at their own time, not four times it: else each
    // reducer started on a slower host would let the next go to a slower one still.
    double allowed =
        Math.max(FACTOR * PlanEvaluator.unpinnedBound(d, net), PlanEvaluator.pinnedBound(d, net));
    if (!(allowed > 0)) {
      return null;
    }
    double[] least = new double[d.reducers()];
    for (int n = 0; n < least.length; n++) {
      least[n] = d.work(n) / allowed;
    }
    return least;
  }

  /** Whether host j is fast enough for reducer n ({@code least} from {@link #slowestAllowed}). */
  static boolean allows(double[] least, int n, int j, NetworkProfile net) {
    return least == null || net.hosts().get(j).inBytesPerSec() >= least[n];
  }
}
