/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * Philae's sampling (003, section 4): a few pilot flows of a coflow whose size is unknown go first,
 * with the whole bandwidth of their ports, and the coflow's size is estimated from theirs. Shared
 * by {@link PhilaePolicy} and {@link SizeLearning}, so the pilots are chosen one way.
 */
final class PilotSampling {

  /** The paper's default: pilots on 5% of a coflow's senders, at least one. */
  static final double PILOT_FRACTION = 0.05;

  private PilotSampling() {}

  /**
   * Chooses a coflow's pilots among the flows {@code candidate} accepts that cross the network now:
   * {@code max(1, 5% of its senders)}, each on a sender of its own, the senders with the fewest
   * pilots first and, on each, the flow whose receiver has the fewest; counts them into {@code
   * pilotsOut} and {@code pilotsIn}. Null when no candidate can start (no reducer placed yet).
   */
  static int[] choose(
      ActiveCoflow a, int[] hostOf, IntPredicate candidate, int[] pilotsOut, int[] pilotsIn) {
    int flows = a.remaining().length;
    Map<Integer, List<Integer>> bySender = new HashMap<>();
    Set<Integer> senders = new HashSet<>();
    for (int k = 0; k < flows; k++) {
      senders.add(a.flowSource()[k]);
      if (candidate.test(k) && a.crossesNetwork(k, hostOf)) {
        bySender.computeIfAbsent(a.flowSource()[k], s -> new ArrayList<>()).add(k);
      }
    }
    if (bySender.isEmpty()) {
      return null;
    }
    int count = Math.min(bySender.size(), Math.max(1, (int) (PILOT_FRACTION * senders.size())));
    int[] pilots = new int[count];
    for (int p = 0; p < count; p++) {
      int sender = -1;
      for (int s : bySender.keySet()) {
        if (sender < 0
            || pilotsOut[s] < pilotsOut[sender]
            || (pilotsOut[s] == pilotsOut[sender] && s < sender)) {
          sender = s;
        }
      }
      int best = -1;
      for (int k : bySender.remove(sender)) {
        int dst = hostOf[a.flowReducer()[k]];
        if (best < 0 || pilotsIn[dst] < pilotsIn[hostOf[a.flowReducer()[best]]]) {
          best = k;
        }
      }
      pilots[p] = best;
      pilotsOut[sender]++;
      pilotsIn[hostOf[a.flowReducer()[best]]]++;
    }
    return pilots;
  }

  /** Counts the pilots of a coflow that still cross the network into the per-port counts. */
  static void count(ActiveCoflow a, int[] hostOf, int[] pilots, int[] pilotsOut, int[] pilotsIn) {
    for (int k : pilots) {
      if (a.crossesNetwork(k, hostOf)) {
        pilotsOut[a.flowSource()[k]]++;
        pilotsIn[hostOf[a.flowReducer()[k]]]++;
      }
    }
  }

  /**
   * Each pilot still moving takes all its two ports have left, in the order given; writes its rate
   * into {@code rates} and spends it from {@code outLeft} and {@code inLeft}.
   */
  static void run(
      ActiveCoflow a,
      int[] hostOf,
      int[] pilots,
      double[] rates,
      double[] outLeft,
      double[] inLeft) {
    for (int k : pilots) {
      if (a.crossesNetwork(k, hostOf)) {
        int src = a.flowSource()[k];
        int dst = hostOf[a.flowReducer()[k]];
        double rate = Math.max(0, Math.min(outLeft[src], inLeft[dst]));
        rates[k] = rate;
        outLeft[src] -= rate;
        inLeft[dst] -= rate;
      }
    }
  }

  static boolean contains(int[] values, int v) {
    for (int x : values) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }
}
