/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.CoflowPlugin;
import org.coflowshuffle.spark.CoflowShuffleManager;
import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.junit.jupiter.api.Test;

/**
 * SQL with adaptive execution on Spark's local mode: the coordinator places the coalesced
 * partitions Spark runs as tasks, and leaves to Spark the reads it splits by map output.
 */
class CoalescedReadsTest {

  private static SparkSession session() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("coalesced-reads")
        .config("spark.ui.enabled", "false")
        .config("spark.shuffle.manager", CoflowShuffleManager.class.getName())
        .config("spark.plugins", CoflowPlugin.NAME)
        .config("spark.coflow.placement.enabled", "true") // local mode places only when asked
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.sql.autoBroadcastJoinThreshold", "-1")
        .config("spark.sql.shuffle.partitions", "20")
        .config("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false")
        .getOrCreate();
  }

  /** Every placement this application made, by shuffle. */
  private static List<ShufflePlacement> placements() {
    List<ShufflePlacement> out = new ArrayList<>();
    for (int s = 0; s < 20; s++) {
      Optional<ShufflePlacement> p = CoflowDriverPlugin.placement(s);
      if (p.isPresent() && p.get().shuffleIds().get(0) == s) {
        out.add(p.get());
      }
    }
    return out;
  }

  @Test
  void placesTheCoalescedPartitionsSparkRunsAsTasks() throws Exception {
    try (SparkSession spark = session()) {
      spark.conf().set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "2k");
      spark.conf().set("spark.sql.adaptive.coalescePartitions.minPartitionSize", "1k");
      List<Row> rows =
          spark.range(200_000).selectExpr("id % 997 as k").groupBy("k").count().collectAsList();
      assertEquals(997, rows.size());
      assertTrue(rows.stream().allMatch(r -> r.getLong(1) >= 200), "every count is right");
      List<ShufflePlacement> placed = placements();
      assertEquals(1, placed.size(), placed.toString());
      ShufflePlacement p = placed.get(0);
      assertEquals(20, p.tasks().reducers());
      assertTrue(p.tasks().tasks() > 1 && p.tasks().tasks() < 20, p.tasks().toString());
    }
  }

  @Test
  void leavesSkewSplitsToSpark() throws Exception {
    try (SparkSession spark = session()) {
      spark.conf().set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "1k");
      spark.conf().set("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "1");
      spark.conf().set("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "1k");
      spark
          .range(100_000)
          .selectExpr("case when id % 2 = 0 then 0 else id % 50 end as k", "id as v")
          .createOrReplaceTempView("facts");
      spark.range(50).selectExpr("id as k", "id * 10 as w").createOrReplaceTempView("dims");
      long n = spark.sql("select v, w from facts join dims using (k)").count();
      assertEquals(100_000, n);
      // Shuffles 0 and 1 feed the join, whose stage Spark splits; count()'s shuffle 2 is placed.
      List<ShufflePlacement> placed = placements();
      assertTrue(
          placed.stream().noneMatch(p -> p.shuffleIds().contains(0) || p.shuffleIds().contains(1)),
          "a stage with a skew split keeps Spark's placement: " + placed);
      assertTrue(placed.stream().anyMatch(p -> p.shuffleIds().equals(List.of(2))), "" + placed);
    }
  }

  @Test
  void aJoinTurnedIntoABroadcastJoinIsReadLocallyAndNeedsNoPlacement() throws Exception {
    try (SparkSession spark = session()) {
      // Planned as a sort-merge join (dims looks large before it runs), turned into a broadcast
      // join once its shuffle shows 5 rows: facts' shuffle is then read where its map output is.
      spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "100k");
      spark.range(200_000).selectExpr("id % 1000 as k", "id as v").createOrReplaceTempView("facts");
      spark.range(100_000).where("id < 5").selectExpr("id as k").createOrReplaceTempView("dims");
      long n = spark.sql("select v from facts join dims using (k)").count();
      assertEquals(1_000, n);
      MetricRegistry r =
          spark
              .sparkContext()
              .env()
              .metricsSystem()
              .getSourcesByName("plugin." + CoflowPlugin.NAME)
              .head()
              .metricRegistry();
      assertTrue(r.counter("placements.keptSpark.localRead").getCount() > 0, "read locally");
      assertEquals(0, r.counter("placements.keptSpark.sparkRead").getCount(), "no other cause");
    }
  }
}
