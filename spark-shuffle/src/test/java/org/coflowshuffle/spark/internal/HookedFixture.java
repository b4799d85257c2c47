/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Methods shaped as the Spark ones hooks go into, for {@link EntryHookWeaverTest} to weave: each
 * says by its result or its record that its own code ran.
 */
public class HookedFixture {

  /** What {@link #submit} saw, in order. */
  public final List<String> submitted = new ArrayList<>();

  /** As {@code DAGScheduler.submitMissingTasks(Stage, int)}. */
  public void submit(String stage, int job) {
    submitted.add(stage + " " + job);
  }

  /** As {@code DAGScheduler.getPreferredLocsInternal(rdd, int, visited)}. */
  public List<String> where(String dependency, int reducer) {
    return List.of("own " + dependency + " " + reducer);
  }

  /** As {@code ShuffledRDD.getPreferredLocations(Partition)}. */
  public List<String> preferred(String partition) {
    return List.of("own " + partition);
  }

  /**
   * Jumps back to its first instruction, so its class file has a stack map frame there: the code
   * woven in before it must leave that frame valid.
   */
  public List<String> countDown(String name, int n) {
    do {
      n--;
    } while (n > 0);
    return List.of(name + " " + n);
  }

  /** Takes a long first: arguments of two slots. */
  public List<String> wide(long first, String second) {
    return List.of("own " + first + " " + second);
  }
}
