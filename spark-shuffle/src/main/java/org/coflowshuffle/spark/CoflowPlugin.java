/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import java.util.Map;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.coflowshuffle.spark.executor.DriverLink;
import org.coflowshuffle.spark.executor.ExecutorMetrics;
import org.coflowshuffle.spark.executor.PacedFetchInstaller;

/**
 * The plugin users name in {@code spark.plugins}: the embedded coordinator on the driver, and on
 * each executor the line over which map tasks report their sizes to it.
 */
public final class CoflowPlugin implements SparkPlugin {

  /** The class name to put in {@code spark.plugins}. */
  public static final String NAME = CoflowPlugin.class.getName();

  @Override
  public DriverPlugin driverPlugin() {
    return new CoflowDriverPlugin();
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      private PacedFetchInstaller paced;

      @Override
      public void init(PluginContext ctx, Map<String, String> extraConf) {
        DriverLink.connect(ctx);
        if (CoflowSparkConf.pacedFetch(ctx.conf())) {
          paced = PacedFetchInstaller.install(ctx);
        }
        if (paced != null) { // else there is nothing to count (local mode: the driver's are all)
          ExecutorMetrics.register(ctx.metricRegistry());
        }
      }

      @Override
      public void onTaskSucceeded() {
        if (paced != null) {
          paced.logPacedBytes();
        }
      }

      @Override
      public void shutdown() {
        if (paced != null) {
          paced.close();
        }
        DriverLink.disconnect();
      }
    };
  }
}
