/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.coflowshuffle.spark.driver.GrowingCluster;

/**
 * Compares where a reduce task ran with where the coordinator placed it. A class of its own so that
 * stock runs, which lack the plugin's JAR, never load it.
 */
public final class PlacementCheck {

  private PlacementCheck() {}

  /**
   * True when the task ran on the executor the coordinator chose for it (or, with dynamic
   * allocation, on the host of the executor to come it chose): for its reduce partition, or for the
   * run of them it read when adaptive execution coalesced partitions.
   */
  public static boolean ranWherePlaced(ReduceTaskLog.Task t) {
    return CoflowDriverPlugin.placement(t.shuffleId())
        .filter(p -> t.partition() < p.tasks().tasks())
        .map(
            p ->
                GrowingCluster.ranWherePlaced(
                    p.executorOfTask(t.partition()), t.executorId(), t.host()))
        .orElse(false);
  }
}
