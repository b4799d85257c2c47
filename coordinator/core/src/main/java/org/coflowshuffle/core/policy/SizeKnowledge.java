/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

/**
 * What is known of an active coflow some of whose flow sizes are not: a shuffle that starts before
 * its map outputs are measured (pushed, pipelined or streaming shuffles), whose client reports map
 * outputs without sizes. For a flow of unknown size, the coflow's {@link ActiveCoflow#remaining()}
 * holds a placeholder that is above 0 exactly while the flow can move now; the flow is over only
 * when its receiver says so ({@code ended}), whatever it received.
 *
 * @param unknown per flow, true where its size is not known
 * @param received per flow, bytes it delivered so far
 * @param ended per flow, true once it delivered everything
 */
public record SizeKnowledge(boolean[] unknown, double[] received, boolean[] ended) {

  public SizeKnowledge {
    if (unknown.length != received.length || unknown.length != ended.length) {
      throw new IllegalArgumentException(
          "size knowledge of unequal lengths: "
              + unknown.length
              + ", "
              + received.length
              + ", "
              + ended.length);
    }
  }

  /**
   * The share of a flow's size assumed still to come once it has received about as much as, or more
   * than, its estimate without ending: an estimate is a mean, and such a flow is only known to be
   * larger than what it received.
   */
  public static final double FLOOR_SHARE = 0.1;

  /**
   * Bytes assumed left of a flow of estimated size {@code perFlow} that has received {@code
   * received} and not ended: the estimate less what arrived, at least {@link #FLOOR_SHARE} of the
   * larger of the two, and at least one byte, so that a flow still moving is never taken for done.
   */
  public static double left(double perFlow, double received) {
    return Math.max(1, Math.max(perFlow - received, FLOOR_SHARE * Math.max(perFlow, received)));
  }
}
