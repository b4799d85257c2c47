/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Code woven into Spark's driver so that the coordinator chooses where reduce tasks run. Three
 * methods get it:
 *
 * <ul>
 *   <li>{@code DAGScheduler.submitMissingTasks}, on entry: a stage is about to get its tasks, the
 *       moment its coflow (every shuffle it reads) is complete and is placed;
 *   <li>{@code MapOutputTrackerMaster.getPreferredLocationsForShuffle}, on exit: the answer for one
 *       reducer of a shuffle, asked by {@code ShuffledRDD} and SQL's {@code ShuffledRowRDD};
 *   <li>{@code RDD.getPreferredLocations}, on exit, for RDDs that do not override it: the answer
 *       for {@code CoGroupedRDD} (RDD joins), which asks nobody.
 * </ul>
 *
 * <p>The woven code runs in Spark's class loader, which cannot see this plugin's classes (they come
 * from {@code --jars}). So it reaches the placer only through JDK types kept in the system
 * properties. Anything thrown inside is dropped, leaving Spark's own behaviour, except a {@link
 * VirtualMachineError} (out of memory, stack overflow): the JVM is failing, and Spark must see it.
 */
public final class PreferredLocationsAdvice {

  /** {@code BiConsumer<Stage, Integer>}: a stage is being submitted for a job. */
  public static final String STAGE_KEY = "org.coflowshuffle.spark.stage";

  /** {@code BiFunction<ShuffleDependency, Integer, Seq or null>}: one reducer's location. */
  public static final String SHUFFLE_KEY = "org.coflowshuffle.spark.placer";

  /** {@code BiFunction<RDD, Partition, Seq or null>}: a partition's location. */
  public static final String RDD_KEY = "org.coflowshuffle.spark.rdd";

  private PreferredLocationsAdvice() {}

  /** Woven into {@code DAGScheduler.submitMissingTasks(Stage, int)}. */
  public static final class StageSubmitted {
    private StageSubmitted() {}

    @SuppressWarnings("unchecked")
    @Advice.OnMethodEnter
    static void enter(@Advice.Argument(0) Object stage, @Advice.Argument(1) int jobId) {
      try {
        Object hook = System.getProperties().get(STAGE_KEY);
        if (hook instanceof BiConsumer) {
          ((BiConsumer<Object, Object>) hook).accept(stage, jobId);
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        // Spark's own behaviour
      }
    }
  }

  /** Woven into {@code MapOutputTrackerMaster.getPreferredLocationsForShuffle(dep, reducer)}. */
  public static final class ShuffleReducer {
    private ShuffleReducer() {}

    @SuppressWarnings({"unchecked", "UnusedVariable"})
    @Advice.OnMethodExit
    static void exit(
        @Advice.Argument(0) Object dependency,
        @Advice.Argument(1) int reducer,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object preferred) {
      try {
        Object hook = System.getProperties().get(SHUFFLE_KEY);
        if (hook instanceof BiFunction) {
          Object chosen = ((BiFunction<Object, Object, Object>) hook).apply(dependency, reducer);
          if (chosen != null) {
            preferred = chosen;
          }
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        // Spark's own answer
      }
    }
  }

  /** Woven into {@code RDD.getPreferredLocations(Partition)}, Spark's default of no preference. */
  public static final class RddPartition {
    private RddPartition() {}

    @SuppressWarnings({"unchecked", "UnusedVariable"})
    @Advice.OnMethodExit
    static void exit(
        @Advice.This Object rdd,
        @Advice.Argument(0) Object partition,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object preferred) {
      try {
        Object hook = System.getProperties().get(RDD_KEY);
        if (hook instanceof BiFunction) {
          Object chosen = ((BiFunction<Object, Object, Object>) hook).apply(rdd, partition);
          if (chosen != null) {
            preferred = chosen;
          }
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        // Spark's own answer
      }
    }
  }
}
