/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

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
  private final MetricRegistry registry;
  private final Supplier<Map<String, double[]>> hostRates;
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();

  /**
   * @param active coflows submitted and not completed
   * @param pacedBytes shuffle bytes the executors fetched through the paced transport
   * @param hostRates per machine, rates planned in and out, delivered in and out, bytes per second
   */
  DriverMetrics(
      MetricRegistry registry,
      IntSupplier active,
      LongSupplier pacedBytes,
      Supplier<Map<String, double[]>> hostRates) {
    this.registry = registry;
    this.hostRates = hostRates;
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

  /**
   * Gauges for each machine not seen before: {@code hosts.<host>.in.planned}, {@code
   * .in.delivered}, {@code .out.planned} and {@code .out.delivered}, bytes per second (0 while no
   * stage's flows cross it).
   */
  void hosts(Set<String> seen) {
    for (String host : seen) {
      if (hosts.add(host)) {
        String[] names = {"in.planned", "out.planned", "in.delivered", "out.delivered"};
        for (int i = 0; i < names.length; i++) {
          int at = i;
          registry.register(
              MetricRegistry.name("hosts", host, names[i]),
              (Gauge<Double>) () -> hostRates.get().getOrDefault(host, new double[4])[at]);
        }
      }
    }
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

  /**
   * A flow left the paced transport for Spark's own client: counted in all and by cause ({@code
   * flows.fellBack.<cause>}, see {@code Messages.Unpaced}).
   */
  void fellBack(String cause) {
    fellBack.inc();
    registry.counter(MetricRegistry.name("flows.fellBack", cause)).inc();
  }

  /**
   * A shuffle (or a stage's set of shuffles) kept Spark's placement: counted in all and by cause
   * ({@code placements.keptSpark.<cause>}, see {@code ReducerPlacer#cause}).
   */
  void keptSpark(String cause) {
    keptSparks.inc();
    registry.counter(MetricRegistry.name("placements.keptSpark", cause)).inc();
  }
}
