package org.coflowshuffle.core.plan;

/**
 * Computes one coflow's placement and completion estimate against the bandwidth left (Algorithm 1,
 * line 5). Implementations: {@link RpcPlanner} and {@link FaithfulPlanner}.
 */
public interface Planner {

  /** Plans {@code demand}; reads {@code net} but does not change it. */
  CoflowPlan plan(CoflowDemand demand, NetworkProfile net);
}
