/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the plugin did in this executor, in Spark's metrics system (source {@code
 * plugin.org.coflowshuffle.spark.CoflowPlugin} of the executor): the executor's sinks show it, as
 * the driver's show {@code DriverMetrics}. Names match the driver's where they mean the same, for
 * this executor alone.
 */
public final class ExecutorMetrics {

  /** Flows of this executor's reducers that left the paced transport for Spark's own client. */
  static final AtomicLong fellBack = new AtomicLong();

  /** The same by cause (see {@code Messages.Unpaced#cause}). */
  static final Map<String, AtomicLong> fellBackBy =
      Map.of("connect", new AtomicLong(), "start", new AtomicLong(), "fetch", new AtomicLong());

  /**
   * Per paced flow that could move at once (a positive first rate), the milliseconds from its start
   * to its first byte: its connection, its first rate and its first request, during which its
   * coflow's plan already counts it as moving.
   */
  static final Histogram flowStartMillis = new Histogram(new ExponentiallyDecayingReservoir());

  private ExecutorMetrics() {}

  static void flowStarted(long nanos) {
    flowStartMillis.update(TimeUnit.NANOSECONDS.toMillis(nanos));
  }

  public static void register(MetricRegistry registry) {
    registry.register("bytes.paced", (Gauge<Long>) PacedShuffleClient.pacedBytes::get);
    registry.register("flows.fellBack", (Gauge<Long>) fellBack::get);
    registry.register("flows.startMillis", flowStartMillis);
    fellBackBy.forEach(
        (cause, n) ->
            registry.register(MetricRegistry.name("flows.fellBack", cause), (Gauge<Long>) n::get));
  }
}
