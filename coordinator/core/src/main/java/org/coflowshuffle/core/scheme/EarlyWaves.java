/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import org.coflowshuffle.core.plan.CoflowDemand;
import org.coflowshuffle.core.plan.GreedyPlacement;
import org.coflowshuffle.core.plan.NetworkProfile;
import org.coflowshuffle.core.plan.PlacementMethod;
import org.coflowshuffle.core.plan.SlotAwarePlacer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.WaveRule;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * The paper's first option for multi-wave reducers ({@link WaveRule#LAST_WAVE}, section IV-D): a
 * coflow whose reducers still to start are more than the slots free now is not planned by Algorithm
 * 1 but served in the background, after the coflows that are: oldest first, its reducers take the
 * slots left by list scheduling, and its flows share the bandwidth left max-min fair per flow (work
 * conservation as TCP would give it, no coflow favoured). Once its last wave fits, it is planned
 * like any other.
 */
final class EarlyWaves {

  private final PlacementMethod listScheduling = new GreedyPlacement();
  private WeightedFilling filling; // kept for its arrays

  /**
   * Per coflow: true when its reducers still to start are more than the slots free now, so that
   * this wave is not its last; null where no host has a slot limit.
   */
  static boolean[] of(List<ActiveCoflow> active, NetworkProfile net) {
    if (!net.slotsLimited()) {
      return null;
    }
    long free = 0;
    for (int j = 0; j < net.hostCount(); j++) {
      free += net.freeSlotsNow(j); // 0 where reducers may not run
    }
    boolean[] early = new boolean[active.size()];
    for (int i = 0; i < early.length; i++) {
      int waiting = 0;
      for (boolean pinned : active.get(i).pinned()) {
        waiting += pinned ? 0 : 1;
      }
      early[i] = waiting > free;
    }
    return early;
  }

  /**
   * Places and rates the coflows {@code early} marks, in {@code out}, on what {@code net} has left;
   * takes their slots and bandwidth from it.
   */
  void serve(
      List<ActiveCoflow> active,
      IntFunction<CoflowDemand> demand,
      NetworkProfile net,
      CoflowAssignment[] out,
      boolean[] early) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < early.length; i++) {
      if (early[i]) {
        order.add(i);
      }
    }
    order.sort(Comparator.comparingDouble(i -> active.get(i).coflow().arrival()));
    int m = net.hostCount();
    filling = WeightedFilling.forHosts(filling, m);
    int[][] pairOf = new int[early.length][];
    int[][] hosts = new int[early.length][];
    for (int i : order) {
      CoflowDemand d = demand.apply(i);
      int[] hostOf = SlotAwarePlacer.place(d, net, listScheduling, false);
      for (int n = 0; n < hostOf.length; n++) {
        if (hostOf[n] >= 0 && d.pinnedHost(n) < 0) {
          net.takeSlot(hostOf[n]);
        }
      }
      pairOf[i] = filling.add(active.get(i), hostOf, k -> true, Weight.FLOWS);
      hosts[i] = hostOf;
    }
    double[] outLeft = new double[m];
    double[] inLeft = new double[m];
    for (int j = 0; j < m; j++) {
      outLeft[j] = net.out(j).rateNow();
      inLeft[j] = net.in(j).rateNow();
    }
    double[] perFlow = filling.fill(outLeft, inLeft);
    for (int i : order) {
      ActiveCoflow a = active.get(i);
      double[] rates = WeightedFilling.rates(a, pairOf[i], perFlow, Weight.FLOWS);
      for (int k = 0; k < rates.length; k++) {
        if (rates[k] > 0) { // booked, for the idle-bandwidth fill of the work-conserving variant
          net.out(a.flowSource()[k]).takeNow(rates[k]);
          net.in(hosts[i][a.flowReducer()[k]]).takeNow(rates[k]);
        }
      }
      out[i] = new CoflowAssignment(hosts[i], rates);
    }
  }
}
