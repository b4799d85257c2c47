/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.coflowshuffle.spark.executor.PacedFetchInstaller;
import org.coflowshuffle.spark.executor.ReportingShuffleWriter;
import org.slf4j.LoggerFactory;

/**
 * The shuffle manager users name in {@code spark.shuffle.manager}. It is Spark's own sort shuffle
 * (same files, same block resolver, same readers, so every Spark feature that expects sort shuffle
 * keeps working) plus one thing: each map task reports its exact bytes per reducer to the driver,
 * which the coordinator needs to place reducers before the reduce stage starts.
 *
 * <p>It extends {@link SortShuffleManager} rather than wrapping it because Spark checks for that
 * class in places (batch fetch, push-based shuffle), and a wrapper would silently turn those off.
 */
public class CoflowShuffleManager extends SortShuffleManager {

  /** The constructor Spark calls ({@code ShuffleManager.create}). */
  public CoflowShuffleManager(SparkConf conf, boolean isDriver) {
    super(conf);
    if (isDriver && !conf.get("spark.plugins", "").contains(CoflowPlugin.NAME)) {
      LoggerFactory.getLogger(CoflowShuffleManager.class)
          .warn(
              "coflow: spark.plugins lacks {}: no sizes are collected and Spark places reducers"
                  + " itself",
              CoflowPlugin.NAME);
    }
  }

  /** For callers that do not say where it runs. */
  public CoflowShuffleManager(SparkConf conf) {
    this(conf, false);
  }

  /** On the driver, as Spark creates a shuffle: placement is ready before it can be read. */
  @Override
  public <K, V, C> ShuffleHandle registerShuffle(
      int shuffleId, ShuffleDependency<K, V, C> dependency) {
    CoflowDriverPlugin.awaitHooks(shuffleId);
    return super.registerShuffle(shuffleId, dependency);
  }

  @Override
  public <K, V> ShuffleWriter<K, V> getWriter(
      ShuffleHandle handle, long mapId, TaskContext context, ShuffleWriteMetricsReporter metrics) {
    ShuffleWriter<K, V> writer = super.getWriter(handle, mapId, context, metrics);
    return new ReportingShuffleWriter<>(writer, handle.shuffleId(), context.partitionId());
  }

  @Override
  public boolean unregisterShuffle(int shuffleId) {
    CoflowDriverPlugin.forgetShuffle(shuffleId);
    PacedFetchInstaller.forgetShuffle(shuffleId);
    return super.unregisterShuffle(shuffleId);
  }
}
