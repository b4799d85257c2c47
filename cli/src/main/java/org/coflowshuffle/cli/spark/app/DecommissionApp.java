/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.ExecutorDecommissionInfo;
import org.apache.spark.scheduler.cluster.CoarseGrainedSchedulerBackend;
import org.apache.spark.sql.SparkSession;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A shuffle read, then again after Spark decommissioned an executor that holds part of its map
 * output, with shuffle migration on ({@code spark.decommission.enabled}, {@code
 * spark.storage.decommission.shuffleBlocks.enabled}): the second read finds the migrated blocks on
 * the executors left, so no map task runs again.
 *
 * <p>Usage: {@code DecommissionApp RESULT_JSON}. The JSON holds {@code right} (both reads' answers
 * are the sums computed here), {@code decommissioned} (the executor) and {@code
 * recomputedMapTasks}.
 */
public final class DecommissionApp {

  private DecommissionApp() {}

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().getOrCreate();
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RecomputedMaps recomputed = new RecomputedMaps();
    sc.sc().addSparkListener(recomputed);
    List<Integer> ids = IntStream.range(0, 200_000).boxed().toList();
    JavaPairRDD<Integer, Long> sums =
        sc.parallelize(ids, 6)
            .mapToPair(i -> new Tuple2<>(i % 1000, (long) i))
            .reduceByKey(Long::sum, 4);
    Map<Integer, Long> expected = new HashMap<>();
    ids.forEach(i -> expected.merge(i % 1000, (long) i, Long::sum));
    boolean right = expected.equals(new HashMap<>(sums.collectAsMap()));

    String victim = executors(sc).get(0);
    CoarseGrainedSchedulerBackend backend =
        (CoarseGrainedSchedulerBackend) sc.sc().schedulerBackend();
    backend.decommissionExecutor(
        victim, new ExecutorDecommissionInfo("a test", Option.empty()), true, false);
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (executors(sc).contains(victim) && System.nanoTime() < until) {
      Thread.sleep(200); // it leaves once its shuffle files moved
    }
    right &= expected.equals(new HashMap<>(sums.collectAsMap()));
    ReduceTaskLog.drain(sc.sc());

    ObjectNode out = new ObjectMapper().createObjectNode();
    out.put("right", right);
    out.put("decommissioned", victim);
    out.put("gone", !executors(sc).contains(victim));
    out.put("recomputedMapTasks", recomputed.count());
    new ObjectMapper().writeValue(new File(args[0]), out);
    spark.stop();
  }

  private static List<String> executors(JavaSparkContext sc) {
    return CollectionConverters.asJava(sc.sc().getExecutorIds()).stream().sorted().toList();
  }
}
