package org.coflowshuffle.simulator;

import java.util.Arrays;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * Wraps a policy and records how long each decision takes, up to a limit after which the run is
 * stopped with {@link Enough} (the benchmark needs only so many invocations).
 */
final class TimedPolicy implements SchedulingPolicy {

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

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public Decision decide(ClusterView view) {
    if (count == limit) {
      throw new Enough();
    }
    long start = System.nanoTime();
    Decision d = inner.decide(view);
    long took = System.nanoTime() - start;
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, 2 * count);
    }
    nanos[count++] = took;
    return d;
  }

  /** The recorded decision times, in microseconds. */
  double[] micros() {
    double[] out = new double[count];
    for (int i = 0; i < count; i++) {
      out[i] = nanos[i] / 1e3;
    }
    return out;
  }
}
