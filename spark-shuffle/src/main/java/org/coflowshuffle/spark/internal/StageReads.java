/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Dependency;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.rdd.CoGroupedRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.rdd.SubtractedRDD;
import org.apache.spark.scheduler.ShuffleMapStage;
import org.apache.spark.scheduler.Stage;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the woven scheduler calls hand the placer, read from Spark's private scheduler types: the
 * stage being submitted ({@code Stage}, {@code ShuffleMapStage}), and the RDDs that ask nobody for
 * their partitions' locations ({@code CoGroupedRDD}, {@code SubtractedRDD}). The placer sees only
 * Spark's public types.
 */
public final class StageReads {

  private StageReads() {}

  /**
   * A stage about to get its tasks.
   *
   * @param shuffles the shuffles it reads, one per parent map stage
   * @param rdd its last RDD, whose partitions are its tasks
   */
  public record Submitted(List<ShuffleDependency<?, ?, ?>> shuffles, RDD<?> rdd) {}

  /** The stage {@code DAGScheduler.submitMissingTasks} was called with. */
  public static Submitted submitted(Object stage) {
    Stage s = (Stage) stage;
    List<ShuffleDependency<?, ?, ?>> deps = new ArrayList<>();
    for (Stage parent : CollectionConverters.asJava(s.parents())) {
      if (parent instanceof ShuffleMapStage map) {
        deps.add(map.shuffleDep());
      }
    }
    return new Submitted(List.copyOf(deps), s.rdd());
  }

  /**
   * The shuffle a cogroup reads for its partitions (RDD joins), or null for any other RDD: those
   * keep Spark's default of no preference.
   */
  public static ShuffleDependency<?, ?, ?> cogroupShuffle(Object rdd) {
    if (!(rdd instanceof CoGroupedRDD) && !(rdd instanceof SubtractedRDD)) {
      return null;
    }
    for (Dependency<?> d : CollectionConverters.asJava(((RDD<?>) rdd).dependencies())) {
      if (d instanceof ShuffleDependency<?, ?, ?> dep) {
        return dep;
      }
    }
    return null;
  }
}
