/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * The Spark methods hooks are woven into, checked before weaving: Spark keeps them private, so
 * another Spark version may have renamed or reshaped them, and a hook matched to nothing would
 * leave the plugin placing nothing without a word. The plugin is built for Spark 4.1; with a Spark
 * whose shapes differ, placement stays Spark's and the driver's log says which method is missing.
 */
final class SparkShapes {

  /** {@code BiConsumer<Stage, Integer jobId>}: a stage is being submitted for a job. */
  static final String STAGE_KEY = "org.coflowshuffle.spark.stage";

  /**
   * {@code BiFunction<ShuffleDependency, Integer reducer, Seq or null>}: one reducer's location.
   */
  static final String SHUFFLE_KEY = "org.coflowshuffle.spark.placer";

  /** {@code BiFunction<RDD, Partition, Seq or null>}: a partition's location. */
  static final String RDD_KEY = "org.coflowshuffle.spark.rdd";

  /**
   * A method a hook goes into ({@link EntryHookWeaver}): its class, name, parameter types and
   * return type; the system property its hook is kept under; whether the hook gets {@code this} and
   * the first argument rather than the first two arguments.
   */
  record Woven(
      String className,
      String method,
      List<String> parameters,
      String returns,
      String key,
      boolean passesThis) {}

  /**
   * Where the hooks go. {@code DAGScheduler.submitMissingTasks}: a stage is about to get its tasks,
   * the moment its coflow (every shuffle it reads) is complete and is placed. {@code
   * MapOutputTrackerMaster.getPreferredLocationsForShuffle}: one reducer of a shuffle, asked by
   * {@code ShuffledRDD} and SQL's {@code ShuffledRowRDD}. {@code RDD.getPreferredLocations}, for
   * RDDs that do not override it: {@code CoGroupedRDD} (RDD joins), which asks nobody.
   */
  static final List<Woven> WOVEN =
      List.of(
          new Woven(
              "org.apache.spark.scheduler.DAGScheduler",
              "submitMissingTasks",
              List.of("org.apache.spark.scheduler.Stage", "int"),
              "void",
              STAGE_KEY,
              false),
          new Woven(
              "org.apache.spark.MapOutputTrackerMaster",
              "getPreferredLocationsForShuffle",
              List.of("org.apache.spark.ShuffleDependency", "int"),
              "scala.collection.immutable.Seq",
              SHUFFLE_KEY,
              false),
          new Woven(
              "org.apache.spark.rdd.RDD",
              "getPreferredLocations",
              List.of("org.apache.spark.Partition"),
              "scala.collection.immutable.Seq",
              RDD_KEY,
              true));

  private SparkShapes() {}

  /**
   * Why the advice cannot be woven into the Spark that {@code loader} sees, in one line naming the
   * first method missing or reshaped; null when every one is there.
   */
  static String mismatch(List<Woven> needed, ClassLoader loader) {
    for (Woven w : needed) {
      Class<?> type;
      try {
        type = Class.forName(w.className(), false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        return "class " + w.className() + " not found";
      }
      if (!declares(type, w)) {
        return w.returns()
            + " "
            + w.className()
            + "."
            + w.method()
            + "("
            + String.join(", ", w.parameters())
            + ") not found";
      }
    }
    return null;
  }

  private static boolean declares(Class<?> type, Woven w) {
    for (Method m : type.getDeclaredMethods()) {
      if (m.getName().equals(w.method())
          && Arrays.stream(m.getParameterTypes())
              .map(Class::getName)
              .toList()
              .equals(w.parameters())
          && m.getReturnType().getName().equals(w.returns())) {
        return true;
      }
    }
    return false;
  }
}
