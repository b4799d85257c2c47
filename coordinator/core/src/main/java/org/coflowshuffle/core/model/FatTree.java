/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.Arrays;

/**
 * The k-ary fat-tree of Al-Fares et al., the topology of Rapier's simulations (section V-B): k pods
 * of k/2 edge and k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts, every link of the
 * same speed (full bisection). Hosts under one edge switch share it; hosts in one pod have k/2
 * paths (one per aggregation switch); hosts in different pods have (k/2)^2 (one per core switch).
 */
public final class FatTree {

  private FatTree() {}

  /** Hosts of a k-ary fat-tree. */
  public static int hosts(int k) {
    check(k);
    return k * k * k / 4;
  }

  /**
   * @param k switch ports, even and at least 2
   * @param linkBytesPerSec speed of every inner link (the hosts' links are their {@link Host}s')
   */
  public static Fabric of(int k, double linkBytesPerSec) {
    check(k);
    int h = k / 2;
    // Directed inner links, four kinds of h * h * k each: edge->agg, agg->edge, agg->core,
    // core->agg. Edge e and aggregation switch a of pod p; core switch j of group a.
    int kind = k * h * h;
    double[] capacity = new double[4 * kind];
    Arrays.fill(capacity, linkBytesPerSec);
    Fabric.PathFinder finder =
        (src, dst) -> {
          int ps = src / (h * h);
          int pd = dst / (h * h);
          int es = src % (h * h) / h;
          int ed = dst % (h * h) / h;
          if (ps == pd && es == ed) {
            return new int[][] {{}};
          }
          if (ps == pd) {
            int[][] paths = new int[h][];
            for (int a = 0; a < h; a++) {
              paths[a] = new int[] {up(ps, es, a, h), kind + up(ps, ed, a, h)};
            }
            return paths;
          }
          int[][] paths = new int[h * h][];
          for (int a = 0; a < h; a++) {
            for (int j = 0; j < h; j++) {
              paths[a * h + j] =
                  new int[] {
                    up(ps, es, a, h),
                    2 * kind + up(ps, a, j, h),
                    3 * kind + up(pd, a, j, h),
                    kind + up(pd, ed, a, h)
                  };
            }
          }
          return paths;
        };
    return new Fabric("fat-tree k=" + k, hosts(k), capacity, finder);
  }

  /** Index of the link between switch {@code lower} and switch {@code upper} of pod {@code p}. */
  private static int up(int p, int lower, int upper, int h) {
    return (p * h + lower) * h + upper;
  }

  private static void check(int k) {
    if (k < 2 || k % 2 != 0 || k > 64) {
      throw new IllegalArgumentException("fat-tree: k must be even, 2 to 64, not " + k);
    }
  }
}
