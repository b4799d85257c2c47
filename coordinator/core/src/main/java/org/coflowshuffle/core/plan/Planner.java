/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * Computes one coflow's placement and completion estimate against the bandwidth left (Algorithm 1,
 * line 5). Implementations: {@link RpcPlanner} and {@link FaithfulPlanner}.
 */
public interface Planner {

  /** Plans {@code demand}; reads {@code net} but does not change it. */
  CoflowPlan plan(CoflowDemand demand, NetworkProfile net);

  /**
   * Plans the coflow of {@code previous} again, after coflows served since epoch {@code since} of
   * the same {@code net} took bandwidth (Algorithm 1 asks this of a coflow each time it could be
   * next). The default plans from scratch; a planner may reuse what did not change.
   */
  default CoflowPlan replan(CoflowPlan previous, int since, NetworkProfile net) {
    return plan(previous.demand(), net);
  }

  /**
   * Improves a plan against the same {@code net} it was planned on: that of the coflow chosen to be
   * served next, and that of one about to lose its turn to another. Algorithm 1 plans many coflows
   * to find the shortest but serves one at a time, so effort that only sharpens a plan is spent
   * here, where it can change what is served. The default keeps it.
   */
  default CoflowPlan refine(CoflowPlan plan, NetworkProfile net) {
    return plan;
  }

  /**
   * False only when no plan of this planner can give {@code d} bandwidth now on {@code net}, so
   * that Algorithm 1 need not plan it, nor any coflow after it, once no coflow left may use now.
   * The default, always true, plans every waiting coflow.
   */
  default boolean mayReceiveNow(CoflowDemand d, NetworkProfile net) {
    return true;
  }
}
