/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What the plugin did in this driver, in Spark's metrics system (under {@code
 * plugin.org.coflowshuffle.spark.CoflowPlugin}): every sink Spark is configured with shows it, its
 * Prometheus servlet included. A coflow is a stage that reads shuffles: it arrives when Spark
 * submits it and completes when the stage does.
 */
final class DriverMetrics {

  private final Counter completed;
  private final Histogram cctMillis;
  private final Counter fellBack;
  private final Counter keptSparks;
  private final Histogram decisionMicros;
  private final Counter tasksPlaced;
  private final Counter tasksWherePlaced;

  /**
   * @param active coflows submitted and not completed
   * @param pacedBytes shuffle bytes the executors fetched through the paced transport
   */
  DriverMetrics(MetricRegistry registry, IntSupplier active, LongSupplier pacedBytes) {
    registry.register("coflows.active", (Gauge<Integer>) active::getAsInt);
    completed = registry.counter("coflows.completed");
    cctMillis = registry.histogram("coflows.cctMillis");
    registry.register("bytes.paced", (Gauge<Long>) pacedBytes::getAsLong);
    fellBack = registry.counter("flows.fellBack");
    keptSparks = registry.counter("placements.keptSpark");
    decisionMicros = registry.histogram("placements.decisionMicros");
    tasksPlaced = registry.counter("placements.tasks");
    tasksWherePlaced = registry.counter("placements.tasksWherePlaced");
  }

  /** The coordinator made a placement in {@code nanos}, as the driver waited for it. */
  void decided(long nanos) {
    decisionMicros.update(nanos / 1000);
  }

  /**
   * A coflow's reduce tasks that succeeded after the coordinator placed them, and how many of them
   * ran on the host it chose: the placement match is the second counter over the first.
   */
  void placed(int tasks, int ranWherePlaced) {
    tasksPlaced.inc(tasks);
    tasksWherePlaced.inc(ranWherePlaced);
  }

  /** A coflow completed {@code millis} after it arrived. */
  void completed(long millis) {
    completed.inc();
    cctMillis.update(millis);
  }

  /** A flow left the paced transport for Spark's own client. */
  void fellBack() {
    fellBack.inc();
  }

  /** A shuffle (or a stage's set of shuffles) kept Spark's placement. */
  void keptSpark() {
    keptSparks.inc();
  }
}
