/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The whole chain in one JVM on Spark's local mode: the shuffle manager reports sizes through the
 * executor plugin, the woven hook asks the embedded coordinator, and the job's result is Spark's.
 */
class PluginInLocalModeTest {

  private static SparkConf conf(String scheme) {
    return new SparkConf()
        .setMaster("local[2]")
        .setAppName("plugin-local-mode")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", CoflowShuffleManager.class.getName())
        .set("spark.plugins", CoflowPlugin.NAME)
        .set(CoflowSparkConf.PLACEMENT.name(), "true") // local mode places only when asked
        .set(CoflowSparkConf.SCHEME.name(), scheme);
  }

  private static Map<Integer, Integer> sumByKey(JavaSparkContext sc) {
    List<Integer> ids = IntStream.range(0, 10_000).boxed().toList();
    return new TreeMap<>(
        sc.parallelize(ids, 4)
            .mapToPair(i -> new Tuple2<>(i % 7, 1))
            .reduceByKey(Integer::sum, 3)
            .collectAsMap());
  }

  private static Map<Integer, Integer> expected() {
    Map<Integer, Integer> m = new TreeMap<>();
    for (int i = 0; i < 10_000; i++) {
      m.merge(i % 7, 1, Integer::sum);
    }
    return m;
  }

  @Test
  void placesEveryReducerOfAShuffleAndKeepsTheResult() {
    try (JavaSparkContext sc = new JavaSparkContext(conf("rpc"))) {
      assertEquals(expected(), sumByKey(sc));
      ShufflePlacement p = CoflowDriverPlugin.placement(0).orElseThrow();
      assertEquals(3, p.executorOfReducer().size());
      assertEquals("driver", p.executorOf(0).executorId(), "local mode has one executor");
    }
  }

  @Test
  void everyCoflowIsCountedInSparksMetricsSystem() throws Exception {
    try (JavaSparkContext sc = new JavaSparkContext(conf("rpc"))) {
      assertEquals(expected(), sumByKey(sc));
      assertEquals(expected(), sumByKey(sc));
      scala.collection.immutable.Seq<org.apache.spark.metrics.source.Source> sources =
          sc.env().metricsSystem().getSourcesByName("plugin." + CoflowPlugin.NAME);
      assertEquals(1, sources.size(), "the plugin's metrics are one source of Spark's");
      com.codahale.metrics.MetricRegistry r = sources.head().metricRegistry();
      org.apache.spark.scheduler.LiveListenerBus bus = sc.sc().listenerBus();
      bus.waitUntilEmpty(10_000);
      assertEquals(2, r.counter("coflows.completed").getCount(), "one per reduce stage run");
      assertEquals(2, r.histogram("coflows.cctMillis").getCount());
      assertEquals(0, r.getGauges().get("coflows.active").getValue());
      assertEquals(0, r.counter("placements.keptSpark").getCount());
    }
  }

  @Test
  void aCoalesceAfterAShuffleIsPlacedWithoutAFalseAlarm() {
    try (JavaSparkContext sc = new JavaSparkContext(conf("rpc"))) {
      List<Integer> ids = IntStream.range(0, 10_000).boxed().toList();
      // The coalesce asks where the shuffle's partitions are before the map stage has run.
      long keys =
          sc.parallelize(ids, 4)
              .mapToPair(i -> new Tuple2<>(i % 7, 1))
              .reduceByKey(Integer::sum, 4)
              .coalesce(2)
              .count();
      assertEquals(7, keys);
      assertTrue(CoflowDriverPlugin.placement(0).isPresent(), "placed once its map output was in");
      assertEquals(
          0,
          CoflowDriverPlugin.footprint().get("placerShuffles"),
          "no shuffle noted as kept with Spark's placement");
    }
  }

  @Test
  void aStageWeighsWhatItsJobsSchedulerPoolDoes(@TempDir Path dir) throws Exception {
    Path pools = dir.resolve("fairscheduler.xml");
    Files.writeString(
        pools,
        "<allocations><pool name=\"prod\"><weight>3</weight></pool>"
            + "<pool name=\"zero\"><weight>0</weight></pool></allocations>");
    SparkConf conf =
        conf("wss-priority")
            .set("spark.scheduler.mode", "FAIR")
            .set("spark.scheduler.allocation.file", pools.toString());
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      assertEquals(expected(), sumByKey(sc)); // shuffle 0: the default pool
      sc.setLocalProperty("spark.scheduler.pool", "prod");
      assertEquals(expected(), sumByKey(sc)); // shuffle 1
      sc.setLocalProperty("spark.scheduler.pool", "zero");
      assertEquals(expected(), sumByKey(sc)); // shuffle 2
      assertEquals(1, CoflowDriverPlugin.placement(0).orElseThrow().weight());
      assertEquals(3, CoflowDriverPlugin.placement(1).orElseThrow().weight());
      assertEquals(1, CoflowDriverPlugin.placement(2).orElseThrow().weight(), "0 is not a weight");
    }
    try (JavaSparkContext sc = new JavaSparkContext(conf("wss-priority"))) {
      sc.setLocalProperty("spark.scheduler.pool", "prod"); // FIFO: pools are not used
      assertEquals(expected(), sumByKey(sc));
      assertEquals(1, CoflowDriverPlugin.placement(0).orElseThrow().weight());
    }
  }

  @Test
  void aNegativeLocalityWaitIsIgnoredAndTheStageStillPlaced() {
    try (JavaSparkContext sc =
        new JavaSparkContext(conf("rpc").set("spark.locality.wait", "-1s"))) {
      assertEquals(expected(), sumByKey(sc));
      assertEquals(3, CoflowDriverPlugin.placement(0).orElseThrow().executorOfReducer().size());
    }
  }

  @Test
  void localModePlacesNothingUnlessAskedButStillCountsItsCoflows() throws Exception {
    SparkConf conf = conf("rpc").remove(CoflowSparkConf.PLACEMENT.name());
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      assertEquals(expected(), sumByKey(sc));
      assertTrue(CoflowDriverPlugin.placement(0).isEmpty(), "one executor: nothing to place");
      sc.sc().listenerBus().waitUntilEmpty(10_000);
      com.codahale.metrics.MetricRegistry r =
          sc.env()
              .metricsSystem()
              .getSourcesByName("plugin." + CoflowPlugin.NAME)
              .head()
              .metricRegistry();
      assertEquals(1, r.counter("coflows.completed").getCount(), "the shuffle is still a coflow");
    }
  }

  @Test
  void aBadSettingLeavesSparksPlacementAndTheResult() {
    try (JavaSparkContext sc = new JavaSparkContext(conf("no-such-scheme"))) {
      assertEquals(expected(), sumByKey(sc));
      assertTrue(CoflowDriverPlugin.placement(0).isEmpty());
    }
  }
}
