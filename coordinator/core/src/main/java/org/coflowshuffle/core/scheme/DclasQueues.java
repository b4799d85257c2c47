/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Aalo's discretized priority queues (D-CLAS): queue q holds coflows whose measure lies in [{@code
 * first * factor^(q-1)}, {@code first * factor^q}), the last queue everything above. Aalo's measure
 * is the bytes a coflow has sent; Philae's is its length-weighted port contention. Defaults are
 * both papers': 10 queues, the first bound 10 MiB, each bound 10 times the one before.
 */
record DclasQueues(int queues, double first, double factor) {

  static final DclasQueues DEFAULT = new DclasQueues(10, 10.0 * (1 << 20), 10);

  private static final double TOLERANCE = 1e-9; // a measure this close to a bound has crossed it

  DclasQueues {
    if (queues < 1 || !(first > 0) || !(factor > 1)) {
      throw new IllegalArgumentException(
          "queues " + queues + ", first bound " + first + ", factor " + factor);
    }
  }

  /** The queue of a coflow with the given measure, 0 the highest priority. */
  int queueOf(double measure) {
    int q = 0;
    double bound = first;
    while (q < queues - 1 && measure >= bound * (1 - TOLERANCE)) {
      q++;
      bound *= factor;
    }
    return q;
  }

  /** Positions 0..n-1 ordered by {@code queue[i]}, then by position (first come, first served). */
  static Integer[] order(int[] queue) {
    Integer[] order = new Integer[queue.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> queue[i]).thenComparingInt(i -> i));
    return order;
  }

  /**
   * When a coflow that has sent {@code sent} bytes and sends at {@code rates} (bytes per second,
   * per flow) from {@code now} on leaves its queue; infinite if it never does.
   */
  double leavesAt(double now, double sent, double[] rates) {
    double rate = 0;
    for (double r : rates) {
      rate += r;
    }
    int q = queueOf(sent);
    if (q == queues - 1 || !(rate > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    return now + (first * Math.pow(factor, q) - sent) / rate;
  }
}
