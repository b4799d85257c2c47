/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;

/**
 * Placement decided once, when a coflow is first seen, as the baselines do (random for fair sharing
 * and Varys, scheduling-aware for NEAT). Reducers for which no slot is free wait and are placed at
 * a later invocation (multi-wave).
 */
abstract class ArrivalPlacement {

  private final Map<Integer, int[]> placements = new HashMap<>();

  /** Current placement of every active coflow, placing what can be placed now. */
  final int[][] placements(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[] freeSlots = new int[view.hosts().size()];
    for (int j = 0; j < freeSlots.length; j++) {
      freeSlots[j] = view.slotsFor(j);
    }
    int[][] out = new int[active.size()][];
    placements.keySet().retainAll(active.stream().map(ActiveCoflow::index).toList());
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      int[] hostOf = placements.computeIfAbsent(a.index(), k -> a.hostOf().clone());
      for (int r = 0; r < hostOf.length; r++) {
        if (a.pinned()[r]) {
          hostOf[r] = a.hostOf()[r];
        } else if (hostOf[r] >= 0) {
          if (freeSlots[hostOf[r]] > 0) {
            freeSlots[hostOf[r]]--;
          } else {
            hostOf[r] = -1; // its slot went to another coflow's reducer
          }
        }
      }
      place(view, a, hostOf, freeSlots);
      out[i] = hostOf.clone();
    }
    return out;
  }

  /**
   * The placement chosen so far for the coflow with instance index {@code coflow}, including those
   * placed earlier in the current invocation; null for a coflow not seen yet. Do not modify.
   */
  final int[] placementOf(int coflow) {
    return placements.get(coflow);
  }

  /**
   * Chooses hosts for the reducers of {@code a} that have none ({@code hostOf[r] < 0}), taking a
   * slot from {@code freeSlots} for each.
   */
  abstract void place(ClusterView view, ActiveCoflow a, int[] hostOf, int[] freeSlots);
}
