/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * One way to choose hosts for a coflow's reducers, ignoring reducer slots ({@link SlotAwarePlacer}
 * enforces those, as section IV-D describes).
 */
@FunctionalInterface
public interface PlacementMethod {

  /**
   * Fills {@code hostOf[n]} for every n in {@code reducers} with a host whose {@code eligible}
   * entry is true.
   *
   * @param loads bytes each host already receives for this coflow (pinned and fixed reducers)
   */
  void place(
      CoflowDemand demand,
      int[] reducers,
      boolean[] eligible,
      double[] loads,
      NetworkProfile net,
      int[] hostOf);
}
