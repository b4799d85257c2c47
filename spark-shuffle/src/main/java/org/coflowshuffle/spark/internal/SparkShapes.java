/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * The Spark methods {@link PreferredLocationsAdvice} is woven into, checked before weaving: Spark
 * keeps them private, so another Spark version may have renamed or reshaped them, and advice
 * matched to nothing would leave the plugin placing nothing without a word. The plugin is built for
 * Spark 4.1; with a Spark whose shapes differ, placement stays Spark's and the driver's log says
 * which method is missing.
 */
final class SparkShapes {

  /**
   * A method the advice needs: its class, name, parameter types and return type, and the advice
   * that goes into it.
   */
  record Woven(
      String className, String method, List<String> parameters, String returns, Class<?> advice) {}

  static final List<Woven> WOVEN =
      List.of(
          new Woven(
              "org.apache.spark.scheduler.DAGScheduler",
              "submitMissingTasks",
              List.of("org.apache.spark.scheduler.Stage", "int"),
              "void",
              PreferredLocationsAdvice.StageSubmitted.class),
          new Woven(
              "org.apache.spark.MapOutputTrackerMaster",
              "getPreferredLocationsForShuffle",
              List.of("org.apache.spark.ShuffleDependency", "int"),
              "scala.collection.immutable.Seq",
              PreferredLocationsAdvice.ShuffleReducer.class),
          new Woven(
              "org.apache.spark.rdd.RDD",
              "getPreferredLocations",
              List.of("org.apache.spark.Partition"),
              "scala.collection.immutable.Seq",
              PreferredLocationsAdvice.RddPartition.class));

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
