/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Dependency;
import org.apache.spark.Partition;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.rdd.CoGroupedRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.rdd.SubtractedRDD;
import org.apache.spark.scheduler.ShuffleMapStage;
import org.apache.spark.scheduler.Stage;
import org.apache.spark.sql.execution.CoalescedPartitionSpec;
import org.apache.spark.sql.execution.ShufflePartitionSpec;
import org.apache.spark.sql.execution.ShuffledRowRDD;
import org.apache.spark.sql.execution.ShuffledRowRDDPartition;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the woven scheduler calls hand the placer, read from Spark's private scheduler types: the
 * stage being submitted ({@code Stage}, {@code ShuffleMapStage}), the RDDs that read a shuffle
 * ({@code ShuffledRDD}, SQL's {@code ShuffledRowRDD}) and the reducers each partition reads, and
 * the RDDs that ask nobody for their partitions' locations ({@code CoGroupedRDD}, {@code
 * SubtractedRDD}). The placer sees only Spark's public types.
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

  /** The shuffle a {@code ShuffledRDD} or SQL's {@code ShuffledRowRDD} reads, or null. */
  public static ShuffleDependency<?, ?, ?> shuffleRead(Object rdd) {
    if (rdd instanceof ShuffledRowRDD rows) {
      return rows.dependency();
    }
    if (rdd instanceof ShuffledRDD<?, ?, ?> shuffled) {
      return (ShuffleDependency<?, ?, ?>) shuffled.dependencies().head();
    }
    return null;
  }

  /**
   * The reducers partition {@code p} of a {@linkplain #shuffleRead shuffle-reading RDD} reads,
   * {@code {first, end}}: one, or a run of them adaptive execution coalesced; null where it reads
   * only some map tasks' output (adaptive execution split a skewed reducer, or reads locally),
   * whose location Spark gives by those map tasks.
   */
  public static int[] reducers(Object rdd, Partition p) {
    if (!(rdd instanceof ShuffledRowRDD)) {
      return new int[] {p.index(), p.index() + 1};
    }
    ShufflePartitionSpec spec = ((ShuffledRowRDDPartition) p).spec();
    return spec instanceof CoalescedPartitionSpec c
        ? new int[] {c.startReducerIndex(), c.endReducerIndex()}
        : null;
  }
}
