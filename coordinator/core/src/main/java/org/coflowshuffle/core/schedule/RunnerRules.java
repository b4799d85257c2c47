/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Host;

/**
 * What both runners ({@link ScheduleRunner}, {@link PairRunner}) share: the order they take coflows
 * in, the resolution they accept, and how they hold a policy to the hosts' bandwidth and say that
 * it broke a rule or stalled, so that the two fail alike.
 */
final class RunnerRules {

  /** Relative slack on a link's capacity, for rates summed in another order than they were made. */
  static final double RATE_SLACK = 1e-9;

  private RunnerRules() {}

  /** Coflow indexes by arrival time, ties in instance order. */
  static Integer[] arrivalOrder(List<Coflow> coflows) {
    Integer[] order = new Integer[coflows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> coflows.get(i).arrival()));
    return order;
  }

  /**
   * @throws IllegalArgumentException unless {@code resolution} is finite and at least 0
   */
  static void checkResolution(double resolution) {
    if (!(resolution >= 0) || Double.isInfinite(resolution)) {
      throw new IllegalArgumentException("resolution must be finite and >= 0, not " + resolution);
    }
  }

  /**
   * @param in bytes per second into each host
   * @param out bytes per second out of each host
   * @throws IllegalStateException naming the first host whose bandwidth they exceed
   */
  static void checkHostLinks(
      String scheme, double now, List<Host> hosts, double[] in, double[] out) {
    for (int j = 0; j < hosts.size(); j++) {
      Host h = hosts.get(j);
      if (in[j] > h.inBytesPerSec() * (1 + RATE_SLACK) + 1e-6
          || out[j] > h.outBytesPerSec() * (1 + RATE_SLACK) + 1e-6) {
        throw violation(
            scheme,
            now,
            "exceeded the bandwidth of host " + h.id() + " (in " + in[j] + ", out " + out[j] + ")");
      }
    }
  }

  /** A policy broke a rule of the cluster. */
  static IllegalStateException violation(String scheme, double now, String what) {
    return new IllegalStateException("scheme " + scheme + " at t=" + now + " s " + what);
  }

  /** Coflows are left and nothing will move them. */
  static IllegalStateException stalled(String scheme, double now, int left) {
    return new IllegalStateException(
        "scheme "
            + scheme
            + " stalled at t="
            + now
            + " s: "
            + left
            + " coflows left and no flow has a rate");
  }
}
