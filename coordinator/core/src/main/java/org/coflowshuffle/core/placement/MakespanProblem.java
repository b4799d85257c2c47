/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

import java.util.Arrays;

/**
 * Problem (5) of the RPC paper: place N reducers on M hosts so that the largest host load is least.
 * Placing reducer n on host j adds {@code time[n][j]} to host j's load (the paper's e_nj, here in
 * seconds: the bytes host j must receive for n over its incoming bandwidth). Hosts start with
 * {@code initialLoad[j]}, the load of reducers already pinned there (section IV-D). An entry of
 * {@link Double#POSITIVE_INFINITY} forbids the pair (no slot, host may not run reducers).
 *
 * <p>The arrays are owned by this record and never modified after construction.
 */
public record MakespanProblem(double[][] time, double[] initialLoad) {

  public MakespanProblem {
    int m = initialLoad.length;
    for (int n = 0; n < time.length; n++) {
      if (time[n].length != m) {
        throw new IllegalArgumentException(
            "row " + n + " has " + time[n].length + " hosts, not " + m);
      }
      boolean allowed = false;
      for (double t : time[n]) {
        if (t < 0 || Double.isNaN(t)) {
          throw new IllegalArgumentException("reducer " + n + ": load " + t);
        }
        allowed |= t < Double.POSITIVE_INFINITY;
      }
      if (!allowed) {
        throw new IllegalArgumentException("reducer " + n + " has no host it may run on");
      }
    }
  }

  /** Related machines (e_nj = w_n / b_j), the shape problem (4) has without locality. */
  public static MakespanProblem related(double[] work, double[] speed) {
    double[][] time = new double[work.length][speed.length];
    for (int n = 0; n < work.length; n++) {
      for (int j = 0; j < speed.length; j++) {
        time[n][j] =
            speed[j] > 0 ? work[n] / speed[j] : (work[n] == 0 ? 0 : Double.POSITIVE_INFINITY);
      }
    }
    return new MakespanProblem(time, new double[speed.length]);
  }

  public int reducers() {
    return time.length;
  }

  public int hosts() {
    return initialLoad.length;
  }

  /** Largest host load of an integral assignment ({@code hostOf[n]} = host of reducer n). */
  public double makespan(int[] hostOf) {
    double[] load = Arrays.copyOf(initialLoad, initialLoad.length);
    for (int n = 0; n < hostOf.length; n++) {
      load[hostOf[n]] += time[n][hostOf[n]];
    }
    double max = 0;
    for (double l : load) {
      max = Math.max(max, l);
    }
    return max;
  }
}
