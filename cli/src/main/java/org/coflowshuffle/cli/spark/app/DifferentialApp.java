/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Function1;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.reflect.ClassTag;

/**
 * Runs the same shuffling queries under whatever shuffle manager and plugins the application was
 * submitted with, and writes a digest of each result: two runs, stock and with the plugin, must
 * write equal digests. RDD {@code reduceByKey}, {@code groupByKey}, {@code sortByKey}, {@code join}
 * and a barrier stage reading a shuffle; SQL join, aggregate and {@code ORDER BY}, each with
 * adaptive execution on and off.
 *
 * <p>Usage: {@code DifferentialApp RESULT_JSON [HOLD_FILE]}. With {@code HOLD_FILE}, once the
 * queries ran the application writes its id there and waits (up to five minutes) for {@code
 * HOLD_FILE.go} to appear, its shuffle files still served, then reads the {@code reduceByKey}
 * shuffle once more as {@code "rdd reduceByKey again"}: a test can act on a live application.
 */
public final class DifferentialApp {

  private static final int ROWS = 200_000;
  private static final int PARTITIONS = 6;

  private DifferentialApp() {}

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().getOrCreate();
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    ObjectNode out = new ObjectMapper().createObjectNode();
    out.put("applicationId", sc.sc().applicationId());
    ObjectNode results = out.putObject("results");
    ReduceTaskLog log = new ReduceTaskLog();
    sc.sc().addSparkListener(log);
    Checker check =
        (name, query) -> {
          sc.setJobGroup(name, name, false);
          results.put(name, query.call());
          sc.clearJobGroup();
        };
    List<Integer> ids = IntStream.range(0, ROWS).boxed().toList();
    // Skewed keys: key k appears about twice as often as key k + 1 in each decade.
    JavaPairRDD<Integer, Long> pairs =
        sc.parallelize(ids, PARTITIONS).mapToPair(i -> new Tuple2<>(skew(i), (long) i * 7 % 1000));
    JavaPairRDD<Integer, String> names =
        sc.parallelize(IntStream.range(0, 500).boxed().toList(), PARTITIONS)
            .mapToPair(k -> new Tuple2<>(k, "name-" + k));

    JavaPairRDD<Integer, Long> sums = pairs.reduceByKey(Long::sum, PARTITIONS);
    check.run("rdd reduceByKey", () -> unordered(sums.collect()));
    check.run(
        "rdd groupByKey",
        () ->
            unordered(
                pairs
                    .groupByKey(PARTITIONS)
                    .mapValues(
                        vs -> {
                          List<Long> l = new ArrayList<>();
                          vs.forEach(l::add);
                          l.sort(null);
                          return l.toString();
                        })
                    .collect()));
    check.run("rdd sortByKey", () -> ordered(pairs.sortByKey(true, PARTITIONS).keys().collect()));
    check.run("rdd join", () -> unordered(pairs.join(names, PARTITIONS).collect()));
    // A barrier stage reads a shuffle: its tasks start together (one per core of the cluster's
    // two) and wait for each other before they return what they read.
    Function1<Iterator<Tuple2<Integer, Long>>, Iterator<Tuple2<Integer, Long>>> together =
        (Function1<Iterator<Tuple2<Integer, Long>>, Iterator<Tuple2<Integer, Long>>> & Serializable)
            rows -> {
              BarrierTaskContext.get().barrier();
              return rows;
            };
    check.run(
        "rdd barrier",
        () ->
            unordered(
                List.of(
                    (Object[])
                        pairs
                            .reduceByKey(Long::sum, 2)
                            .rdd()
                            .barrier()
                            .mapPartitions(together, false, ClassTag.apply(Tuple2.class))
                            .collect())));

    spark
        .range(ROWS)
        .selectExpr("id", "id % 997 as k", "id * 31 % 1009 as v")
        .createOrReplaceTempView("facts");
    spark
        .range(997)
        .selectExpr("id as k", "concat('dim-', id) as label")
        .createOrReplaceTempView("dims");
    spark.conf().set("spark.sql.shuffle.partitions", String.valueOf(PARTITIONS));
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1"); // a real shuffle join
    // With AQE on, reduce partitions of under 1 MB coalesce (not down to one per core, Spark's
    // default), so that tasks read runs of reducers and the coordinator must place tasks.
    spark.conf().set("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false");
    spark.conf().set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "1m");
    spark.conf().set("spark.sql.adaptive.coalescePartitions.minPartitionSize", "16k");
    for (boolean aqe : new boolean[] {false, true}) {
      spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(aqe));
      String suffix = aqe ? " (AQE on)" : " (AQE off)";
      check.run(
          "sql join" + suffix,
          () ->
              unordered(
                  spark
                      .sql("select f.id, d.label from facts f join dims d on f.k = d.k")
                      .collectAsList()));
      check.run(
          "sql aggregate" + suffix,
          () ->
              unordered(
                  spark.sql("select k, sum(v), count(*) from facts group by k").collectAsList()));
      check.run(
          "sql order by" + suffix,
          () -> ordered(spark.sql("select id, v from facts order by v, id").collectAsList()));
    }
    if (args.length > 1) {
      Hold.until(Path.of(args[1]), sc.sc().applicationId());
      check.run("rdd reduceByKey again", () -> unordered(sums.collect()));
    }
    ReduceTaskLog.drain(sc.sc());
    boolean plugin = sc.getConf().get("spark.plugins", "").contains("CoflowPlugin");
    ObjectNode placement = out.putObject("placement");
    results
        .fieldNames()
        .forEachRemaining(
            name -> {
              ReduceTaskLog.Summary sum = log.summary(name, plugin);
              ObjectNode n = placement.putObject(name);
              n.put("reduceTasks", sum.tasks());
              n.put("placed", sum.placed());
            });
    new ObjectMapper().writeValue(new File(args[0]), out);
    spark.stop();
  }

  private static int skew(int i) {
    int decade = i % 100 / 10;
    return (i % 10 < 5 ? 0 : 1) + 2 * (i % 50) + decade % 2;
  }

  /** Runs one query in its own job group and records its digest. */
  @FunctionalInterface
  private interface Checker {
    void run(String name, Callable<String> query) throws Exception;
  }

  /** Digest of a result whose order is not part of its meaning. */
  static String unordered(List<?> rows) throws Exception {
    List<String> lines = new ArrayList<>();
    for (Object r : rows) {
      lines.add(text(r));
    }
    lines.sort(null);
    return digest(lines);
  }

  /** Digest of a result whose order is part of its meaning. */
  private static String ordered(List<?> rows) throws Exception {
    List<String> lines = new ArrayList<>();
    for (Object r : rows) {
      lines.add(text(r));
    }
    return digest(lines);
  }

  private static String text(Object r) {
    return r instanceof Row row ? row.mkString("|") : String.valueOf(r);
  }

  private static String digest(List<String> lines) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (String l : lines) {
      sha.update(l.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) '\n');
    }
    return lines.size() + " rows, sha256 " + HexFormat.of().formatHex(sha.digest());
  }
}
