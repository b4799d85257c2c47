/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.TaskLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Input stored on hosts: the same records as Spark's own reader, each split preferring its host.
 */
class TeraSortInputTest {

  @TempDir Path dir;

  private String part(String name, long first, int rows) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] r = new byte[TeraRecords.RECORD];
    for (int i = 0; i < rows; i++) {
      TeraRecords.row(first + i, r);
      bytes.write(r);
    }
    return Files.write(dir.resolve(name), bytes.toByteArray()).toString();
  }

  @Test
  void storedInputReadsTheSameRecordsAndPrefersItsHosts() throws Exception {
    String in = part("part-0", 0, 30) + "," + part("part-1", 30, 20) + "," + part("part-2", 50, 5);
    try (JavaSparkContext sc =
        new JavaSparkContext(
            new SparkConf()
                .setMaster("local[1]")
                .setAppName("input")
                .set("spark.ui.enabled", "false"))) {
      JavaRDD<byte[]> stored = TeraSort.input(sc, in, List.of("h1", "h2"));
      JavaRDD<byte[]> plain = TeraSort.input(sc, in, List.of());
      assertEquals(55, stored.count());
      assertArrayEquals(
          plain.map(TeraRecords::key).collect().toArray(),
          stored.map(TeraRecords::key).collect().toArray());
      assertEquals(3, stored.getNumPartitions());
      for (int p = 0; p < 3; p++) {
        // Where the scheduler wants the task: Spark-internal, public in bytecode.
        List<String> hosts =
            CollectionConverters.asJava(sc.sc().getPreferredLocs(stored.rdd(), p)).stream()
                .map(TaskLocation::host)
                .toList();
        assertEquals(List.of(p % 2 == 0 ? "h1" : "h2"), hosts, "split " + p);
      }
    }
  }
}
