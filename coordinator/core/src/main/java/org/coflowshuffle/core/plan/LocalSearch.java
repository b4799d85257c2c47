/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * Improves a plan by moving one reducer to another host, or swapping two reducers' hosts, while the
 * full completion estimate drops, or stays and fewer links end last. The placement methods see only
 * the receivers' links, and the local-reducer rule may even make a slow sender the bottleneck; the
 * estimate sees senders too. Where two links end last (two slow senders that keep none of their
 * bytes local), no single move shortens the coflow, but a move that frees one of them is the first
 * of two that do: counting the links that end last lets the search take it. It costs O(N (N + M))
 * evaluations a round, so it is only run on small coflows.
 */
final class LocalSearch {

  /** Reducers times hosts up to which a coflow is polished. */
  static final int MAX_PAIRS = 4096;

  private static final int MAX_ROUNDS = 4;

  private LocalSearch() {}

  /** {@code slowHostRule}: moves keep to the hosts {@link SlowHostRule} allows. */
  static CoflowPlan improve(
      CoflowDemand d, CoflowPlan plan, NetworkProfile net, boolean slowHostRule) {
    int m = net.hostCount();
    if ((long) d.reducers() * m > MAX_PAIRS) {
      return plan;
    }
    int[] used = new int[m]; // reducers this plan newly places on each host
    for (int n = 0; n < d.reducers(); n++) {
      if (d.pinnedHost(n) < 0 && plan.hostOf()[n] >= 0) {
        used[plan.hostOf()[n]]++;
      }
    }
    double[] least = slowHostRule ? d.slowestAllowed(net) : null;
    CoflowPlan best = plan;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      CoflowPlan start = best;
      for (int n = 0; n < d.reducers(); n++) {
        int from = best.hostOf()[n];
        if (d.pinnedHost(n) >= 0 || from < 0) {
          continue;
        }
        for (int j = 0; j < m; j++) { // move n to j
          if (j != from
              && net.hosts().get(j).canHostReducers()
              && used[j] < net.freeSlots(j)
              && SlowHostRule.allows(least, n, j, net)) {
            CoflowPlan moved = evaluate(d, best, net, n, j, -1, -1);
            if (better(moved, best, net)) {
              best = moved;
              used[from]--;
              used[j]++;
              from = j;
            }
          }
        }
        for (int o = n + 1; o < d.reducers(); o++) { // swap n and o
          int other = best.hostOf()[o];
          if (d.pinnedHost(o) < 0
              && other >= 0
              && other != from
              && SlowHostRule.allows(least, n, other, net)
              && SlowHostRule.allows(least, o, from, net)) {
            CoflowPlan swapped = evaluate(d, best, net, n, other, o, from);
            if (better(swapped, best, net)) {
              best = swapped;
              from = other;
            }
          }
        }
      }
      if (best == start) {
        break;
      }
    }
    return best;
  }

  /** Ends sooner, or as soon with fewer links ending last: strictly better, so the search ends. */
  private static boolean better(CoflowPlan candidate, CoflowPlan best, NetworkProfile net) {
    if (candidate.finish() < best.finish() * (1 - 1e-12)) {
      return true;
    }
    return candidate.finish() <= best.finish() * (1 + 1e-12)
        && linksEndingLast(candidate, net) < linksEndingLast(best, net);
  }

  private static int linksEndingLast(CoflowPlan plan, NetworkProfile net) {
    double last = plan.finish() * (1 - 1e-9);
    int count = 0;
    for (int j : plan.touched()) {
      if (plan.received()[j] > 0 && net.in(j).timeToCarry(plan.received()[j]) >= last) {
        count++;
      }
      if (plan.sent()[j] > 0 && net.out(j).timeToCarry(plan.sent()[j]) >= last) {
        count++;
      }
    }
    return count;
  }

  private static CoflowPlan evaluate(
      CoflowDemand d, CoflowPlan plan, NetworkProfile net, int n, int host, int o, int otherHost) {
    int[] hostOf = plan.hostOf().clone();
    hostOf[n] = host;
    if (o >= 0) {
      hostOf[o] = otherHost;
    }
    return PlanEvaluator.evaluate(d, hostOf, net);
  }
}
