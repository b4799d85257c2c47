/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * Turns the plan of the coflow chosen by Algorithm 1 into flow rates for now, and takes the
 * bandwidth it uses out of B (line 15).
 */
public interface RateRule {

  /**
   * @return bytes/s per flow of the coflow (0 for flows that wait, are local or have an unplaced
   *     reducer); never more than {@code net} has free now on either end
   */
  double[] commit(CoflowPlan plan, NetworkProfile net);

  /**
   * {@link #commit(CoflowPlan, NetworkProfile)} for a coflow whose last commit {@code last} holds,
   * for rules that can start from it; the rates returned may be rewritten by the next commit with
   * the same {@code last}. With {@code readAfter} false the caller reads nothing of {@code net}
   * after this commit (the last coflow Algorithm 1 serves in an invocation), and a rule may leave B
   * as it is, sparing a commit that rewrites only a few reducers' rates a pass over every link the
   * coflow uses.
   */
  default double[] commit(
      CoflowPlan plan, NetworkProfile net, CommittedRates last, boolean readAfter) {
    return commit(plan, net);
  }

  /** Takes a slot for every reducer the plan places anew. */
  static void takeSlots(CoflowPlan plan, NetworkProfile net) {
    CoflowDemand d = plan.demand();
    for (int n = 0; n < plan.hostOf().length; n++) {
      if (plan.hostOf()[n] >= 0 && d.pinnedHost(n) < 0) {
        net.takeSlot(plan.hostOf()[n]);
      }
    }
  }
}
