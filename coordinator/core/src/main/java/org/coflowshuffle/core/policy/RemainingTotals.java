/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

/**
 * A coflow's remaining bytes summed per reducer and per source host: what placement and rates are
 * decided on (the paper's w_n and the senders' loads), so that a decision need not pass over every
 * flow. Kept by whoever tracks the flows' progress, which passes over them anyway: the simulator as
 * it advances them. Read-only; valid for the {@link ActiveCoflow#version()} it came with.
 *
 * @param perReducer remaining bytes per reducer index
 * @param perSource remaining bytes per source host index (entries past the largest source may be
 *     missing)
 */
public record RemainingTotals(double[] perReducer, double[] perSource) {

  /**
   * Sums {@code remaining} in flow order (so the totals are the same to the last bit whoever
   * computes them).
   *
   * @param sources length of {@code perSource}: more than the largest source host index
   */
  public static RemainingTotals of(
      double[] remaining, int[] flowReducer, int[] flowSource, int reducers, int sources) {
    double[] perReducer = new double[reducers];
    double[] perSource = new double[sources];
    for (int k = 0; k < remaining.length; k++) {
      perReducer[flowReducer[k]] += remaining[k];
      perSource[flowSource[k]] += remaining[k];
    }
    return new RemainingTotals(perReducer, perSource);
  }
}
