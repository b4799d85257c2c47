/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.function.IntPredicate;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.util.IndexedMinHeap;

/**
 * Weighted max-min fair rates by progressive filling, on the bandwidth a caller has left: every
 * unfrozen flow rises in proportion to its weight until a host's outgoing or incoming link is full,
 * whose flows then freeze. Unit weights give per-flow fair sharing (TCP's rough outcome, the {@code
 * fair} baseline); weights equal to bytes give Orchestra's Weighted Shuffle Scheduling, where the
 * flows of a shuffle end together and one link stays full.
 *
 * <p>Flows between the same two hosts are interchangeable here, so they are added as one pair with
 * their weights summed: the cost of a filling grows with the host pairs in use, not with the flows.
 * One instance serves one cluster size and one thread; {@link #fill} leaves it empty for the next.
 */
final class WeightedFilling {

  private final int hosts;
  private final int[] pairOf; // src * hosts + dst -> pair, or -1 outside a filling
  private int[] src = new int[16];
  private int[] dst = new int[16];
  private double[] weight = new double[16];
  private int pairs;

  /** What a flow's weight is. */
  enum Weight {
    /** One per flow: max-min fair sharing. */
    FLOWS,
    /** The flow's remaining bytes: Weighted Shuffle Scheduling. */
    BYTES
  }

  /** {@code reuse} if it serves the view's cluster size, else a new instance. */
  static WeightedFilling forHosts(WeightedFilling reuse, ClusterView view) {
    return forHosts(reuse, view.hosts().size());
  }

  /** {@code reuse} if it serves {@code m} hosts, else a new instance. */
  static WeightedFilling forHosts(WeightedFilling reuse, int m) {
    return reuse != null && reuse.hosts == m ? reuse : new WeightedFilling(m);
  }

  WeightedFilling(int hosts) {
    this.hosts = hosts;
    this.pairOf = new int[hosts * hosts];
    Arrays.fill(pairOf, -1);
  }

  /** Adds {@code w} to the flows from {@code from} to {@code to}; returns the pair's number. */
  int add(int from, int to, double w) {
    int key = from * hosts + to;
    int p = pairOf[key];
    if (p < 0) {
      if (pairs == src.length) {
        src = Arrays.copyOf(src, 2 * pairs);
        dst = Arrays.copyOf(dst, 2 * pairs);
        weight = Arrays.copyOf(weight, 2 * pairs);
      }
      p = pairs++;
      pairOf[key] = p;
      src[p] = from;
      dst[p] = to;
      weight[p] = 0;
    }
    weight[p] += w;
    return p;
  }

  /**
   * Adds the flows of {@code a} that cross the network under {@code hostOf} and that {@code which}
   * accepts; returns, per flow, its pair's number or -1 where it was not added.
   */
  int[] add(ActiveCoflow a, int[] hostOf, IntPredicate which, Weight by) {
    return add(a, hostOf, which, by, 1);
  }

  /**
   * Like {@link #add(ActiveCoflow, int[], IntPredicate, Weight)}, every weight times {@code scale}.
   */
  int[] add(ActiveCoflow a, int[] hostOf, IntPredicate which, Weight by, double scale) {
    int[] pairOfFlow = new int[a.remaining().length];
    for (int k = 0; k < pairOfFlow.length; k++) {
      pairOfFlow[k] =
          a.crossesNetwork(k, hostOf) && which.test(k)
              ? add(a.flowSource()[k], hostOf[a.flowReducer()[k]], scale * weight(a, k, by))
              : -1;
    }
    return pairOfFlow;
  }

  /**
   * The rates of the flows that {@link #add(ActiveCoflow, int[], IntPredicate, Weight)} added,
   * given what {@link #fill} returned; 0 for the others.
   */
  static double[] rates(ActiveCoflow a, int[] pairOfFlow, double[] perWeight, Weight by) {
    return rates(a, pairOfFlow, perWeight, by, 1);
  }

  /** The rates of flows added with weights times {@code scale}. */
  static double[] rates(
      ActiveCoflow a, int[] pairOfFlow, double[] perWeight, Weight by, double scale) {
    double[] rates = new double[pairOfFlow.length];
    for (int k = 0; k < rates.length; k++) {
      rates[k] = pairOfFlow[k] < 0 ? 0 : perWeight[pairOfFlow[k]] * scale * weight(a, k, by);
    }
    return rates;
  }

  /**
   * Fills the chosen flows of one coflow alone on what is left (which they spend); returns their
   * rates, 0 for the others.
   */
  double[] fill(
      ActiveCoflow a,
      int[] hostOf,
      IntPredicate which,
      Weight by,
      double[] outLeft,
      double[] inLeft) {
    int[] pairOfFlow = add(a, hostOf, which, by);
    return rates(a, pairOfFlow, fill(outLeft, inLeft), by);
  }

  /** The weight of the unfrozen pairs of link l, summed anew. */
  private double weightUnfrozen(int l, int[] start, int[] onLink, boolean[] frozen) {
    double sum = 0;
    for (int i = start[l]; i < start[l + 1]; i++) {
      sum += frozen[onLink[i]] ? 0 : weight[onLink[i]];
    }
    return sum;
  }

  private static double weight(ActiveCoflow a, int k, Weight by) {
    return by == Weight.FLOWS ? 1 : a.remaining()[k];
  }

  /**
   * Fills the pairs added since the last call and takes their rates off {@code outLeft} and {@code
   * inLeft} (bytes per second left per host). Returns, per pair, the rate per unit of weight: a
   * flow's rate is its own weight times its pair's entry.
   *
   * <p>Progressive filling, one link at a time: every unfrozen pair stands at the same level (rate
   * per unit of weight), and link l fills at level (left_l - used_l) / W_l, where used_l is what
   * its frozen pairs take and W_l the weight of its unfrozen ones. The link that fills at the
   * lowest level freezes its pairs there, which moves the level at which each of their other links
   * fills; a heap of links finds the next one: O(pairs log links) a filling, where raising every
   * pair round by round would cost O(pairs x links).
   */
  double[] fill(double[] outLeft, double[] inLeft) {
    int n = pairs;
    double[] perWeight = new double[n];
    // links 0..hosts-1 are outgoing, hosts..2*hosts-1 incoming
    int[] start = new int[2 * hosts + 1]; // pairs of link l: onLink[start[l]..start[l + 1])
    for (int p = 0; p < n; p++) {
      if (weight[p] > 0) {
        start[src[p] + 1]++;
        start[hosts + dst[p] + 1]++;
      }
    }
    for (int l = 0; l < 2 * hosts; l++) {
      start[l + 1] += start[l];
    }
    int[] onLink = new int[start[2 * hosts]];
    int[] fillAt = start.clone();
    for (int p = 0; p < n; p++) {
      if (weight[p] > 0) {
        onLink[fillAt[src[p]]++] = p;
        onLink[fillAt[hosts + dst[p]]++] = p;
      }
    }
    double[] left = new double[2 * hosts]; // what the link has for its unfrozen pairs
    double[] unfrozenWeight = new double[2 * hosts];
    int[] unfrozen = new int[2 * hosts];
    for (int j = 0; j < hosts; j++) {
      left[j] = Math.max(0, outLeft[j]);
      left[hosts + j] = Math.max(0, inLeft[j]);
    }
    boolean[] frozen = new boolean[n];
    for (int l = 0; l < 2 * hosts; l++) {
      unfrozen[l] = start[l + 1] - start[l];
      unfrozenWeight[l] = weightUnfrozen(l, start, onLink, frozen);
    }
    double[] summedWeight = unfrozenWeight.clone(); // as last summed pair by pair
    IndexedMinHeap byLevel = new IndexedMinHeap(2 * hosts); // links still filling
    for (int l = 0; l < 2 * hosts; l++) {
      if (unfrozen[l] > 0) {
        byLevel.set(l, left[l] / unfrozenWeight[l]);
      }
    }
    while (!byLevel.isEmpty()) {
      int l = byLevel.first();
      double level = byLevel.firstKey();
      if (level == Double.POSITIVE_INFINITY) {
        throw new IllegalStateException("flows between hosts of unlimited bandwidth");
      }
      byLevel.remove(l);
      for (int i = start[l]; i < start[l + 1]; i++) {
        int p = onLink[i];
        if (frozen[p]) {
          continue;
        }
        frozen[p] = true;
        perWeight[p] = level;
        int other = l < hosts ? hosts + dst[p] : src[p];
        left[other] = Math.max(0, left[other] - level * weight[p]);
        unfrozenWeight[other] -= weight[p];
        if (--unfrozen[other] == 0) {
          byLevel.remove(other);
          continue;
        }
        if (!(unfrozenWeight[other] > 1e-3 * summedWeight[other])) {
          // most of the sum is gone: sum what is left anew, or rounding of the large weights
          // taken off would show in the level of the small ones that remain
          unfrozenWeight[other] = weightUnfrozen(other, start, onLink, frozen);
          summedWeight[other] = unfrozenWeight[other];
        }
        byLevel.set(other, left[other] / unfrozenWeight[other]);
      }
    }
    for (int p = 0; p < n; p++) {
      outLeft[src[p]] -= perWeight[p] * weight[p];
      inLeft[dst[p]] -= perWeight[p] * weight[p];
      pairOf[src[p] * hosts + dst[p]] = -1;
    }
    pairs = 0;
    return perWeight;
  }
}
