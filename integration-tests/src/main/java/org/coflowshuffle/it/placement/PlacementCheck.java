package org.coflowshuffle.it.placement;

import org.coflowshuffle.spark.CoflowDriverPlugin;

/**
 * Compares where a reduce task ran with where the coordinator placed it. A class of its own so that
 * stock runs, which lack the plugin's JAR, never load it.
 */
public final class PlacementCheck {

  private PlacementCheck() {}

  /** True when the task ran on the executor the coordinator chose for its reduce partition. */
  public static boolean ranWherePlaced(ReduceTaskLog.Task t) {
    return CoflowDriverPlugin.placement(t.shuffleId())
        .map(p -> p.executorOf(t.partition()).executorId().equals(t.executorId()))
        .orElse(false);
  }
}
