/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

/**
 * One flow of a coflow: map output on host {@code src} that reducer {@code reducer} must fetch. A
 * flow whose reducer lands on {@code src} is local and crosses no link.
 *
 * @param src index of the sending host
 * @param reducer index of the reducer within its coflow's reducer list
 * @param bytes volume, at least 0
 */
public record Flow(int src, int reducer, double bytes) {

  public Flow {
    check(src, reducer, bytes);
  }

  /**
   * Checks a flow's fields, for those that keep flows without records ({@link FlowTable}).
   *
   * @throws IllegalArgumentException for a negative index, or bytes negative or not finite
   */
  static void check(int src, int reducer, double bytes) {
    if (src < 0 || reducer < 0) {
      throw new IllegalArgumentException("flow src " + src + ", reducer " + reducer);
    }
    if (!(bytes >= 0) || Double.isInfinite(bytes)) {
      throw new IllegalArgumentException("flow bytes " + bytes);
    }
  }
}
