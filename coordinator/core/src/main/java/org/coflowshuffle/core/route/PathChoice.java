/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import org.coflowshuffle.core.model.Fabric;

/**
 * How one flow picks among its candidate paths without piling onto one of them. Both rules judge a
 * path by its <em>own</em> links, those not on every candidate: the links every candidate crosses
 * (a host's own, on a fat-tree) weigh the same on each, and letting them decide makes every choice
 * a tie that the first path wins, which puts every flow of a pod on one core switch.
 */
public final class PathChoice {

  private PathChoice() {}

  /**
   * The candidate with the most capacity left (Rapier's AssignBandwidth); among equals, the one
   * whose own links have the most left; the first after that.
   */
  public static int widest(int[][] candidates, double[] free) {
    if (candidates.length == 1) {
      return 0;
    }
    int[] shared = Fabric.shared(candidates);
    int best = 0;
    double most = -1;
    double mostOwn = -1;
    for (int k = 0; k < candidates.length; k++) {
      double b = PathRate.bottleneck(candidates[k], free);
      double own = Double.POSITIVE_INFINITY;
      for (int l : candidates[k]) {
        if (!Fabric.contains(shared, l)) {
          own = Math.min(own, free[l]);
        }
      }
      if (b > most || (b == most && own > mostOwn)) {
        most = b;
        mostOwn = own;
        best = k;
      }
    }
    return best;
  }

  /**
   * The candidate whose busiest own link would take the longest to carry its load with this flow
   * added; the first on ties.
   *
   * @param load bytes already routed over each link
   * @param capacity bytes per second of each link
   */
  public static int leastLoaded(
      int[][] candidates, double bytes, double[] load, double[] capacity) {
    if (candidates.length == 1) {
      return 0;
    }
    int[] shared = Fabric.shared(candidates);
    int best = 0;
    double least = Double.POSITIVE_INFINITY;
    for (int k = 0; k < candidates.length; k++) {
      double worst = 0;
      for (int l : candidates[k]) {
        if (!Fabric.contains(shared, l)) {
          worst = Math.max(worst, seconds(load[l] + bytes, capacity[l]));
        }
      }
      if (worst < least) {
        least = worst;
        best = k;
      }
    }
    return best;
  }

  /** Adds (or, with negative {@code bytes}, removes) a flow's bytes on the links of its path. */
  public static void addLoad(double[] load, int[] path, double bytes) {
    for (int l : path) {
      load[l] += bytes;
    }
  }

  private static double seconds(double bytes, double capacity) {
    return capacity > 0 ? bytes / capacity : bytes > 0 ? Double.POSITIVE_INFINITY : 0;
  }
}
