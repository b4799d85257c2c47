/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import java.util.Arrays;
import java.util.Comparator;
import org.coflowshuffle.core.lp.PathSplitLp;
import org.coflowshuffle.core.model.Fabric;

/**
 * Algorithm 2 of the Rapier paper: one coflow's routing and rate together. Solve LP (4), put each
 * flow on the path that carries most of it there, then LP (2) on those paths ({@link PathRate}).
 * Theorem 1: the rate found is at least 1/K of the best single-path rate, K the most candidate
 * paths of a flow; tests check it on random instances against exhaustive search.
 *
 * <p>Two additions keep it fast and its paths spread. First, a greedy routing (largest flow first,
 * each on its {@link PathChoice#leastLoaded least loaded} path) runs before the LP; when it reaches
 * the rate the links every candidate shares allow (a host's own links on a fat-tree), no routing
 * does better and the LP is skipped. Second, LP (4) is degenerate whenever those shared links bind:
 * its vertex then puts every flow on the first path, so after rounding each flow moves, largest
 * first, to its least loaded path, which never lowers the rate. The better of the two routings is
 * kept, so Theorem 1 still holds.
 */
public final class MinimumCct {

  /**
   * @param path per flow, the index of its chosen candidate path
   * @param alpha the coflow's rate on those paths: it ends in {@code 1 / alpha} seconds
   * @param upper an upper bound on the rate of any choice of single paths (LP (4)'s optimum, or the
   *     bound of the shared links)
   */
  public record Routed(int[] path, double alpha, double upper) {}

  private final PathSplitLp lp;

  public MinimumCct(PathSplitLp lp) {
    this.lp = lp;
  }

  /**
   * @param bytes v_j per flow, positive
   * @param candidates per flow, its candidate paths as link indices
   * @param free R_l, capacity left per link
   */
  public Routed route(double[] bytes, int[][][] candidates, double[] free) {
    int n = bytes.length;
    boolean choice = false;
    int[][] shared = new int[n][];
    for (int j = 0; j < n; j++) {
      if (!anyOpen(candidates[j], free)) {
        return new Routed(new int[n], 0, 0); // a flow with every path blocked cannot move now
      }
      choice |= candidates[j].length > 1;
      shared[j] = Fabric.shared(candidates[j]);
    }
    Integer[] order = new Integer[n];
    for (int j = 0; j < n; j++) {
      order[j] = j;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer j) -> -bytes[j]));
    int[] greedy = new int[n];
    spread(bytes, candidates, free, order, greedy, false);
    double alpha = PathRate.alpha(bytes, chosen(candidates, greedy), free);
    double bound = PathRate.alpha(bytes, shared, free);
    if (!choice || alpha >= bound * (1 - 1e-9)) {
      return new Routed(greedy, alpha, Math.max(alpha, bound));
    }
    PathSplitLp.Split split = lp.solve(bytes, candidates, free);
    int[] rounded = new int[n];
    for (int j = 0; j < n; j++) {
      double[] m = split.share()[j];
      for (int k = 1; k < m.length; k++) {
        if (m[k] > m[rounded[j]]) {
          rounded[j] = k;
        }
      }
    }
    spread(bytes, candidates, free, order, rounded, true);
    double roundedAlpha = PathRate.alpha(bytes, chosen(candidates, rounded), free);
    return roundedAlpha > alpha
        ? new Routed(rounded, roundedAlpha, split.alpha())
        : new Routed(greedy, alpha, split.alpha());
  }

  /**
   * Puts each flow, in {@code order}, on its least loaded path given the others' paths; with {@code
   * improve}, {@code path} holds a routing to improve, else flows not yet placed count as absent.
   */
  private static void spread(
      double[] bytes,
      int[][][] candidates,
      double[] free,
      Integer[] order,
      int[] path,
      boolean improve) {
    double[] load = new double[free.length];
    if (improve) {
      for (int j = 0; j < bytes.length; j++) {
        PathChoice.addLoad(load, candidates[j][path[j]], bytes[j]);
      }
    }
    for (int j : order) {
      if (improve) {
        PathChoice.addLoad(load, candidates[j][path[j]], -bytes[j]);
      }
      path[j] = PathChoice.leastLoaded(candidates[j], bytes[j], load, free);
      PathChoice.addLoad(load, candidates[j][path[j]], bytes[j]);
    }
  }

  private static boolean anyOpen(int[][] candidates, double[] free) {
    for (int[] path : candidates) {
      if (PathRate.bottleneck(path, free) > 0) {
        return true;
      }
    }
    return false;
  }

  /** The links of each flow's chosen path. */
  public static int[][] chosen(int[][][] candidates, int[] path) {
    int[][] links = new int[path.length][];
    for (int j = 0; j < path.length; j++) {
      links[j] = candidates[j][path[j]];
    }
    return links;
  }
}
