/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.spark.Dependency;
import org.apache.spark.NarrowDependency;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.execution.CoalescedMapperPartitionSpec;
import org.apache.spark.sql.execution.CoalescedPartitionSpec;
import org.apache.spark.sql.execution.PartialMapperPartitionSpec;
import org.apache.spark.sql.execution.ShufflePartitionSpec;
import org.apache.spark.sql.execution.ShuffledRowRDD;
import org.apache.spark.sql.execution.ShuffledRowRDDPartition;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.PlacementUnavailable.Cause;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import scala.jdk.javaapi.CollectionConverters;

/**
 * How the tasks of a stage about to run divide the reducers of the shuffles it reads, read from its
 * RDDs. RDD jobs read one reducer per task. SQL with adaptive execution reads through {@code
 * ShuffledRowRDD}, whose partitions were chosen after the map stage: runs of small reducers
 * coalesced into one task, which is what the coordinator must place, since Spark runs the task
 * where any of its reducers prefers.
 *
 * <p>Reads it cannot place are refused with the reason: skew-join splits divide a reducer by map
 * output, which Spark places by where the map output is; the local shuffle reader reads where the
 * map output is, so no flow crosses the network and there is nothing to place.
 */
public final class CoalescedReads {

  private CoalescedReads() {}

  /** An RDD of the stage, and whether every dependency on the way to it was one to one. */
  private record Step(RDD<?> rdd, boolean direct) {}

  /**
   * The tasks of the stage whose last RDD is {@code stageRdd}, reading shuffles of {@code reducers}
   * reducers each.
   *
   * @throws PlacementUnavailable when its tasks read shuffles otherwise than by runs of reducers
   */
  public static ReduceTaskRanges of(RDD<?> stageRdd, int reducers) throws PlacementUnavailable {
    ReduceTaskRanges found = null;
    Set<RDD<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Step> todo = new ArrayDeque<>();
    todo.push(new Step(stageRdd, true));
    while (!todo.isEmpty()) {
      Step step = todo.pop();
      RDD<?> rdd = step.rdd();
      boolean direct = step.direct();
      if (!seen.add(rdd)) {
        continue;
      }
      if (rdd instanceof ShuffledRowRDD read) {
        ReduceTaskRanges tasks = ranges(read, reducers);
        if (!tasks.oneEach() && !direct) {
          throw new PlacementUnavailable(
              Cause.SPARK_READ, "the stage's tasks are not its coalesced partitions one to one");
        }
        if (found != null && !found.equals(tasks)) {
          throw new PlacementUnavailable(
              Cause.SPARK_READ,
              "its shuffles are coalesced differently: " + found + " and " + tasks);
        }
        found = tasks;
        continue; // a shuffle: the stage ends here
      }
      for (Dependency<?> d : CollectionConverters.asJava(rdd.dependencies())) {
        if (d instanceof NarrowDependency<?> n) {
          todo.push(new Step(n.rdd(), direct && d instanceof OneToOneDependency));
        }
      }
    }
    return found == null ? ReduceTaskRanges.oneEach(reducers) : found;
  }

  /** The runs of reducers the read's partitions take, in order. */
  private static ReduceTaskRanges ranges(ShuffledRowRDD read, int reducers)
      throws PlacementUnavailable {
    Partition[] parts = read.partitions();
    int[] starts = new int[parts.length];
    int next = 0;
    for (int p = 0; p < parts.length; p++) {
      ShufflePartitionSpec spec = ((ShuffledRowRDDPartition) parts[p]).spec();
      if (spec instanceof PartialMapperPartitionSpec
          || spec instanceof CoalescedMapperPartitionSpec) {
        throw new PlacementUnavailable(
            Cause.LOCAL_READ,
            "adaptive execution's local shuffle reader reads it where its map output is (a join"
                + " turned into a broadcast join): no flow crosses the network to place");
      }
      if (!(spec instanceof CoalescedPartitionSpec c)) {
        throw new PlacementUnavailable(
            Cause.SPARK_READ,
            "adaptive execution reads it by map output ("
                + spec.getClass().getSimpleName()
                + "), which Spark places itself");
      }
      if (c.startReducerIndex() < next) {
        throw new PlacementUnavailable(
            Cause.SPARK_READ,
            "adaptive execution reads reducer "
                + c.startReducerIndex()
                + " in several tasks (a skew-join split), which Spark places by map output");
      }
      if (c.startReducerIndex() != next || c.endReducerIndex() <= next) {
        throw new PlacementUnavailable(
            Cause.SPARK_READ,
            "adaptive execution reads reducers out of order: partition "
                + p
                + " reads "
                + c.startReducerIndex()
                + " to "
                + c.endReducerIndex()
                + ", expected from "
                + next);
      }
      starts[p] = next;
      next = c.endReducerIndex();
    }
    if (next != reducers) {
      throw new PlacementUnavailable(
          Cause.SPARK_READ,
          "adaptive execution reads " + next + " of the shuffle's " + reducers + " reducers");
    }
    return ReduceTaskRanges.of(starts, reducers);
  }
}
