/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-flow max-min fair rates over arbitrary paths, by progressive filling: every unfrozen flow
 * grows at the same pace until a link fills, and the flows through it freeze. This is what TCP
 * converges to on a fabric where each flow has one path, and the sharing of Rapier's "baseline" and
 * "routing-only" schemes.
 */
public final class LinkFilling {

  private LinkFilling() {}

  /**
   * @param paths per flow, the links of its path
   * @param free capacity per link; decreased by what the flows take
   * @return rate per flow
   */
  public static double[] fill(int[][] paths, double[] free) {
    int n = paths.length;
    double[] rate = new double[n];
    int[] count = new int[free.length];
    List<List<Integer>> through = new ArrayList<>(free.length);
    for (int l = 0; l < free.length; l++) {
      through.add(null);
    }
    boolean[] frozen = new boolean[n];
    int active = 0;
    for (int j = 0; j < n; j++) {
      if (PathRate.bottleneck(paths[j], free) <= 0) {
        frozen[j] = true;
        continue;
      }
      active++;
      for (int l : paths[j]) {
        count[l]++;
        if (through.get(l) == null) {
          through.set(l, new ArrayList<>());
        }
        through.get(l).add(j);
      }
    }
    while (active > 0) {
      double step = Double.POSITIVE_INFINITY;
      int tightest = -1;
      for (int l = 0; l < free.length; l++) {
        if (count[l] > 0 && free[l] / count[l] < step) {
          step = free[l] / count[l];
          tightest = l;
        }
      }
      for (int j = 0; j < n; j++) {
        if (!frozen[j]) {
          rate[j] += step;
        }
      }
      for (int l = 0; l < free.length; l++) {
        if (count[l] > 0) {
          free[l] = Math.max(0, free[l] - step * count[l]);
        }
      }
      free[tightest] = 0;
      for (int l = 0; l < free.length; l++) {
        if (count[l] > 0 && free[l] <= 1e-9 * step * count[l]) {
          free[l] = 0;
          for (int j : through.get(l)) {
            if (!frozen[j]) {
              frozen[j] = true;
              active--;
              for (int m : paths[j]) {
                count[m]--;
              }
            }
          }
        }
      }
    }
    return rate;
  }
}
