/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.PairwisePolicy;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * Wraps a policy and records how long each decision takes, up to a limit after which the run is
 * stopped with {@link Enough} (the benchmark needs only so many invocations).
 */
class TimedPolicy implements SchedulingPolicy {

  /** Thrown to stop a run once enough decisions were timed. */
  static final class Enough extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Enough() {
      super(null, null, false, false);
    }
  }

  private final SchedulingPolicy inner;
  private final int limit;
  private long[] nanos = new long[64];
  private int count;

  TimedPolicy(SchedulingPolicy inner, int limit) {
    this.inner = inner;
    this.limit = limit;
  }

  /** {@code inner} timed, as a pairwise policy where it is one. */
  static TimedPolicy of(SchedulingPolicy inner, int limit) {
    return inner instanceof PairwisePolicy p
        ? new Pairwise(p, limit)
        : new TimedPolicy(inner, limit);
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public Decision decide(ClusterView view) {
    checkLimit();
    long start = System.nanoTime();
    Decision d = inner.decide(view);
    record(System.nanoTime() - start);
    return d;
  }

  final void checkLimit() {
    if (count == limit) {
      throw new Enough();
    }
  }

  final void record(long took) {
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, 2 * count);
    }
    nanos[count++] = took;
  }

  /** The recorded decision times, in microseconds. */
  double[] micros() {
    double[] out = new double[count];
    for (int i = 0; i < count; i++) {
      out[i] = nanos[i] / 1e3;
    }
    return out;
  }

  /**
   * A pairwise policy timed: a decision is the placement of the coflows that arrived, if any, and
   * the rates of the host pairs that follow it.
   */
  static final class Pairwise extends TimedPolicy implements PairwisePolicy {
    private final PairwisePolicy inner;
    private long placing; // placement time not yet recorded with its decision's rates

    Pairwise(PairwisePolicy inner, int limit) {
      super(inner, limit);
      this.inner = inner;
    }

    @Override
    public int[][] placements(ClusterView arrivals) {
      checkLimit();
      long start = System.nanoTime();
      int[][] placed = inner.placements(arrivals);
      placing += System.nanoTime() - start;
      return placed;
    }

    @Override
    public double[] pairRates(List<Host> hosts, int[] from, int[] to, int[] flows) {
      checkLimit();
      long start = System.nanoTime();
      double[] rates = inner.pairRates(hosts, from, to, flows);
      record(System.nanoTime() - start + placing);
      placing = 0;
      return rates;
    }
  }
}
