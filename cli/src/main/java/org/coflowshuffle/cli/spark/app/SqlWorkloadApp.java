/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Many SQL queries over a small star schema (sales, items, customers), with adaptive execution and
 * every other SQL setting at Spark's defaults: the mix of reads a SQL workload gives (coalesced
 * partitions, joins turned into broadcast joins at run time and read locally, sort-merge joins,
 * windows, rollups, set operations). Writes a digest of each result, so that runs with and without
 * the plugin can be compared, and how many distinct shuffle reads there were (each set of shuffles
 * a stage reads, counted once: a later stage that reads the same shuffles again, as adaptive
 * execution does after it looked at their sizes, runs on the placement made for the first); with
 * the plugin, how many of them it placed and why it placed none of the others (its metrics).
 *
 * <p>Usage: {@code SqlWorkloadApp RESULT_JSON}.
 */
public final class SqlWorkloadApp {

  private static final int SALES = 100_000;

  /** The plugin's name, whose metrics Spark's metrics system keeps as {@code plugin.NAME}. */
  private static final String PLUGIN = "org.coflowshuffle.spark.CoflowPlugin";

  /** The queries by name. */
  public static final Map<String, String> QUERIES = Collections.unmodifiableMap(queries());

  private static Map<String, String> queries() {
    Map<String, String> q = new LinkedHashMap<>();
    q.put(
        "revenue by category",
        "select i.category, sum(s.qty * s.price) r from sales s join items i using (item)"
            + " group by i.category");
    q.put(
        "top customers",
        "select cust, sum(qty * price) r from sales group by cust order by r desc, cust limit 20");
    q.put("customers per store", "select store, count(distinct cust) from sales group by store");
    q.put(
        "daily rank per store",
        "select store, day, r, rank() over (partition by store order by r desc, day) k from"
            + " (select store, day, sum(qty * price) r from sales group by store, day)");
    q.put(
        "rollup region segment",
        "select c.region, c.segment, sum(s.qty) from sales s join customers c using (cust)"
            + " group by rollup (c.region, c.segment)");
    q.put(
        "buyers of a category",
        "select cust from customers where cust in (select s.cust from sales s join items i using"
            + " (item) where i.category = 'c3')");
    q.put(
        "items not sold on day 0",
        "select item from items where item not in (select item from sales where day = 0)");
    q.put(
        "union of aggregates",
        "select 'store' kind, store id, sum(qty) q from sales group by store union all"
            + " select 'item', item, sum(qty) from sales group by item");
    q.put(
        "repeat buyers of an item",
        "select a.cust, a.item, count(*) from sales a join sales b on a.cust = b.cust and a.item"
            + " = b.item and a.id < b.id group by a.cust, a.item");
    q.put(
        "distinct items per region",
        "select c.region, count(distinct s.item) from sales s join customers c using (cust)"
            + " group by c.region");
    q.put(
        "median price per brand",
        "select i.brand, percentile_approx(s.price, 0.5) from sales s join items i using (item)"
            + " group by i.brand");
    q.put("largest sales", "select id, qty * price v from sales order by v desc, id limit 50");
    q.put(
        "busy days",
        "select day, sum(qty) q from sales group by day having sum(qty) > 1370 order by day");
    q.put(
        "above a customer's mean",
        "select s.id from sales s join (select cust, avg(price) m from sales group by cust) a"
            + " using (cust) where s.price > 2 * a.m");
    q.put(
        "stores in both halves",
        "select store from sales where day < 180 intersect select store from sales where day >="
            + " 180");
    q.put(
        "customers only early",
        "select cust from sales where day < 30 except select cust from sales where day >= 30");
    q.put(
        "segments pivoted",
        "select * from (select c.segment, s.store, s.qty from sales s join customers c using"
            + " (cust)) pivot (sum(qty) for segment in ('retail', 'business', 'public'))");
    q.put(
        "cube store category",
        "select s.store, i.category, count(*) from sales s join items i using (item) group by"
            + " cube (s.store, i.category)");
    q.put(
        "sales of a few customers",
        "select s.id, s.qty from sales s join (select * from customers where cust < 5) c using"
            + " (cust)");
    q.put(
        "brands of a few items",
        "select i.brand, sum(s.qty) from sales s join (select * from items where item < 3) i"
            + " using (item) group by i.brand");
    return q;
  }

  private SqlWorkloadApp() {}

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().getOrCreate();
    Map<Integer, Integer> shuffleOfStage = new ConcurrentHashMap<>();
    Set<Set<Integer>> shuffleReads = ConcurrentHashMap.newKeySet();
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onJobStart(SparkListenerJobStart e) {
                // every stage of the job, skipped ones too: a map stage names its shuffle
                for (StageInfo s : CollectionConverters.asJava(e.stageInfos())) {
                  if (s.shuffleDepId().isDefined()) {
                    shuffleOfStage.put(s.stageId(), (Integer) s.shuffleDepId().get());
                  }
                }
              }

              @Override
              public void onStageSubmitted(SparkListenerStageSubmitted e) {
                Set<Integer> read = new TreeSet<>();
                for (Object parent : CollectionConverters.asJava(e.stageInfo().parentIds())) {
                  read.add(shuffleOfStage.get((Integer) parent));
                }
                if (!read.isEmpty()) {
                  shuffleReads.add(read); // its parents are map stages: it reads their shuffles
                }
              }
            });
    spark
        .range(SALES)
        .selectExpr(
            "id",
            "id * 7919 % 2000 as item",
            "id * 104729 % 10000 as cust",
            "id % 20 as store",
            "id * 31 % 365 as day",
            "1 + id % 9 as qty",
            "cast(1 + id * 13 % 997 as double) / 10 as price")
        .createOrReplaceTempView("sales");
    spark
        .range(2000)
        .selectExpr(
            "id as item", "concat('c', id % 12) as category", "concat('b', id % 150) as brand")
        .createOrReplaceTempView("items");
    spark
        .range(10000)
        .selectExpr(
            "id as cust",
            "concat('r', id % 7) as region",
            "element_at(array('retail', 'business', 'public'), cast(id % 3 as int) + 1) as segment")
        .createOrReplaceTempView("customers");
    ObjectMapper json = new ObjectMapper();
    ObjectNode out = json.createObjectNode();
    ObjectNode results = out.putObject("results");
    long start = System.nanoTime();
    for (Map.Entry<String, String> q : QUERIES.entrySet()) {
      results.put(q.getKey(), DifferentialApp.unordered(spark.sql(q.getValue()).collectAsList()));
    }
    out.put("querySeconds", (System.nanoTime() - start) / 1e9);
    spark.sparkContext().listenerBus().waitUntilEmpty(60_000);
    out.put("shuffleReads", shuffleReads.size());
    scala.collection.immutable.Seq<Source> sources =
        spark.sparkContext().env().metricsSystem().getSourcesByName("plugin." + PLUGIN);
    if (sources.nonEmpty()) {
      MetricRegistry r = sources.head().metricRegistry();
      out.put("placed", r.histogram("placements.decisionMicros").getCount());
      ObjectNode kept = out.putObject("keptSpark");
      r.getCounters((name, m) -> name.startsWith("placements.keptSpark."))
          .forEach(
              (name, c) ->
                  kept.put(name.substring("placements.keptSpark.".length()), c.getCount()));
    }
    json.writeValue(new File(args[0]), out);
    spark.stop();
  }
}
