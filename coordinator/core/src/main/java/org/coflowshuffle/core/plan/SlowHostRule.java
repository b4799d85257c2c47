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
 *
 * <p>The rule never allows less than the relaxation (6) needs on the whole bandwidth: where the
 * optimum alpha of (6) is above {@code FACTOR} times the bound (a few fast hosts among many slow
 * ones, the bound counting them all), the limit is alpha, so every host that (6) may use at its
 * optimum stays allowed and Algorithm 2's placement stays within reach, as does its factor 2.
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
    double allowed = d.slowHostLimit(net);
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

  /**
   * Seconds from now one reducer may take alone on its host, for {@link CoflowDemand} to keep: it
   * reads only the hosts' whole bandwidths.
   */
  static double limit(CoflowDemand d, NetworkProfile net) {
    // The reducers already pinned count only at their own time, not four times it: else each
    // reducer started on a slower host would let the next go to a slower one still.
    double allowed =
        Math.max(FACTOR * PlanEvaluator.unpinnedBound(d, net), PlanEvaluator.pinnedBound(d, net));
    return allowed > 0 ? relaxedAtLeast(d, net, allowed) : allowed;
  }

  /**
   * {@code floor}, or the optimum alpha of (6) for the unpinned reducers on the whole bandwidth of
   * the hosts that accept reducers (pinned reducers as their hosts' load) when that is more.
   */
  private static double relaxedAtLeast(CoflowDemand d, NetworkProfile net, double floor) {
    int m = net.hostCount();
    double[] speed = new double[m];
    double[] pinned = new double[m];
    boolean[] eligible = new boolean[m];
    double slowest = Double.POSITIVE_INFINITY;
    int fastest = -1;
    for (int j = 0; j < m; j++) {
      eligible[j] = net.hosts().get(j).acceptsReducers() && net.inWhole(j) > 0;
      speed[j] = net.inWhole(j);
      if (eligible[j]) {
        slowest = Math.min(slowest, speed[j]);
        fastest = fastest < 0 || speed[j] > speed[fastest] ? j : fastest;
      }
    }
    int open = 0;
    double largest = 0;
    double total = 0;
    for (int n = 0; n < d.reducers(); n++) {
      int h = d.pinnedHost(n);
      if (h >= 0) {
        pinned[h] += d.work(n);
      } else {
        open++;
        largest = Math.max(largest, d.work(n));
        total += d.work(n);
      }
    }
    if (fastest < 0 || largest / slowest <= floor) {
      return floor; // every host is fast enough for every reducer: the rule excludes none
    }
    double[] work = new double[open];
    for (int n = 0, i = 0; n < d.reducers(); n++) {
      if (d.pinnedHost(n) < 0) {
        work[i++] = d.work(n);
      }
    }
    HostCapacity capacity = HostCapacity.constant(speed, pinned);
    if (RelatedMachinesPlacement.feasible(work, capacity, eligible, floor)) {
      return floor;
    }
    double upper = (pinned[fastest] + total) / speed[fastest];
    for (int j = 0; j < m; j++) {
      upper = Math.max(upper, eligible[j] ? pinned[j] / speed[j] : 0);
    }
    upper = upper * (1 + 1e-9) + 1e-12;
    return RelatedMachinesPlacement.solve(work, capacity, eligible, floor, upper).alpha();
  }
}
