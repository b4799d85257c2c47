/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.util.Arrays;

/**
 * Mean and nearest-rank percentiles of a sample.
 *
 * @param count sample size
 */
public record Summary(int count, double mean, double p50, double p90, double p99, double max) {

  public static Summary of(double[] values) {
    if (values.length == 0) {
      return new Summary(0, 0, 0, 0, 0, 0);
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (double v : sorted) {
      sum += v;
    }
    return new Summary(
        sorted.length,
        sum / sorted.length,
        rank(sorted, 0.50),
        rank(sorted, 0.90),
        rank(sorted, 0.99),
        sorted[sorted.length - 1]);
  }

  private static double rank(double[] sorted, double q) {
    return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
