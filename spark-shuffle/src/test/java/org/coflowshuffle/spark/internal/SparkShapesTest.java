/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparkShapesTest {

  private static final ClassLoader LOADER = SparkShapesTest.class.getClassLoader();

  @Test
  void theSparkThePluginIsBuiltForHasEveryWovenMethod() {
    assertNull(SparkShapes.mismatch(SparkShapes.WOVEN, LOADER));
  }

  @Test
  void aMissingOrReshapedMethodIsNamed() {
    SparkShapes.Woven renamed =
        new SparkShapes.Woven(
            "org.apache.spark.scheduler.DAGScheduler",
            "submitMissingTasksForJob",
            List.of("org.apache.spark.scheduler.Stage", "int"),
            "void",
            SparkShapes.STAGE_KEY,
            false);
    assertEquals(
        "void org.apache.spark.scheduler.DAGScheduler.submitMissingTasksForJob("
            + "org.apache.spark.scheduler.Stage, int) not found",
        SparkShapes.mismatch(List.of(SparkShapes.WOVEN.get(0), renamed), LOADER));
    SparkShapes.Woven reshaped =
        new SparkShapes.Woven(
            "org.apache.spark.rdd.RDD",
            "getPreferredLocations",
            List.of("org.apache.spark.Partition", "int"),
            "scala.collection.immutable.Seq",
            SparkShapes.RDD_KEY,
            true);
    assertEquals(
        "scala.collection.immutable.Seq org.apache.spark.rdd.RDD.getPreferredLocations("
            + "org.apache.spark.Partition, int) not found",
        SparkShapes.mismatch(List.of(reshaped), LOADER));
    SparkShapes.Woven gone =
        new SparkShapes.Woven(
            "org.apache.spark.NoSuchTracker", "x", List.of(), "void", SparkShapes.STAGE_KEY, false);
    assertEquals(
        "class org.apache.spark.NoSuchTracker not found",
        SparkShapes.mismatch(List.of(gone), LOADER));
  }

  @Test
  void aClassFileTooNewToReadIsNamedNotThrown() {
    SparkShapes.Woven w = SparkShapes.WOVEN.get(0);
    byte[] tooNew = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 99};
    ClassLoader newer =
        new ClassLoader(null) {
          @Override
          public InputStream getResourceAsStream(String name) {
            return new ByteArrayInputStream(tooNew);
          }
        };
    String why = SparkShapes.mismatch(List.of(w), newer);
    assertTrue(why.startsWith("class " + w.className() + " not readable: "), why);
  }
}
