/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

/**
 * LP (2) of the Rapier paper in closed form: once every flow of a coflow has one path, the largest
 * {@code alpha} with {@code alpha * (bytes crossing link l) <= R_l} on every link is the smallest
 * {@code R_l / bytes_l}; the coflow then ends in {@code 1 / alpha} with every flow at {@code alpha
 * * v_j}. Tests check it against the LP solved by ojalgo.
 */
public final class PathRate {

  private PathRate() {}

  /**
   * @param bytes v_j per flow
   * @param paths per flow, the links of its one path
   * @param free R_l per link
   * @return alpha, 0 when a link a flow needs has nothing left, {@code +Infinity} for no bytes
   */
  public static double alpha(double[] bytes, int[][] paths, double[] free) {
    double[] load = new double[free.length];
    for (int j = 0; j < bytes.length; j++) {
      for (int l : paths[j]) {
        load[l] += bytes[j];
      }
    }
    double alpha = Double.POSITIVE_INFINITY;
    for (int j = 0; j < bytes.length; j++) {
      for (int l : paths[j]) {
        if (load[l] > 0) {
          alpha = Math.min(alpha, Math.max(0, free[l]) / load[l]);
        }
      }
    }
    return alpha;
  }

  /** The least capacity left on the links of {@code path}: what one more flow could get on it. */
  public static double bottleneck(int[] path, double[] free) {
    double min = Double.POSITIVE_INFINITY;
    for (int l : path) {
      min = Math.min(min, free[l]);
    }
    return Math.max(0, min);
  }

  /**
   * Takes {@code rate} from every link of {@code path}. What is left is 0 when the take used all
   * but a rounding error of the link (a billionth), so that a full link reads as full.
   */
  public static void take(int[] path, double rate, double[] free) {
    for (int l : path) {
      double left = free[l] - rate;
      free[l] = left > 1e-9 * free[l] ? left : 0;
    }
  }
}
