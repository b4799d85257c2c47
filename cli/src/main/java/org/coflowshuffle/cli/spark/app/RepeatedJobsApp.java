/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.coflowshuffle.spark.driver.CoflowDriverPlugin;
import org.coflowshuffle.spark.executor.PacedFetchInstaller;
import scala.Tuple2;

/**
 * Many small jobs in one SparkContext, each reading two shuffles twice (so that Spark skips a stage
 * the second time), as a long-running application (a notebook, a streaming or SQL server) runs
 * them: every {@code every} jobs it lets Spark drop the shuffles no longer referenced (a
 * collection, so that Spark's {@code ContextCleaner} unregisters them) and counts what the driver
 * and each executor hold: threads, open file descriptors (sockets included), and the plugin's own
 * collections.
 *
 * <p>Usage: {@code RepeatedJobsApp RESULT_JSON JOBS EVERY}. The JSON holds {@code samples}, one per
 * count: {@code job}, {@code driver} and {@code executors} (per executor id), each with {@code
 * threads}, {@code fds} and the plugin's parts; {@code results}, whether every job's answer was
 * right; and, with the UI on, {@code prometheus}: the driver's {@code /metrics/prometheus} at the
 * end (Spark's Prometheus servlet, when configured), and {@code coflowsTab}: the Coflows tab then.
 */
public final class RepeatedJobsApp {

  private static final int KEYS = 7;

  private RepeatedJobsApp() {}

  public static void main(String[] args) throws Exception {
    int jobs = Integer.parseInt(args[1]);
    int every = Integer.parseInt(args[2]);
    SparkSession spark = SparkSession.builder().getOrCreate();
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    ObjectNode out = new ObjectMapper().createObjectNode();
    out.put("applicationId", sc.sc().applicationId());
    ArrayNode samples = out.putArray("samples");
    boolean right = true;
    List<Integer> ids = IntStream.range(0, 2000).boxed().toList();
    for (int job = 1; job <= jobs; job++) {
      // Two shuffles, read twice: the second time Spark skips the stage between them.
      JavaPairRDD<Integer, Integer> counts =
          sc.parallelize(ids, 4)
              .mapToPair(i -> new Tuple2<>(i % (2 * KEYS), 1))
              .reduceByKey(Integer::sum, 3)
              .mapToPair(t -> new Tuple2<>(t._1() % KEYS, t._2()))
              .reduceByKey(Integer::sum, 2);
      for (int read = 0; read < 2; read++) {
        Map<Integer, Integer> got = counts.collectAsMap();
        right &= got.size() == KEYS && got.values().stream().mapToInt(c -> c).sum() == ids.size();
      }
      if (job % every == 0) {
        samples.add(sample(sc, job));
      }
    }
    out.put("results", right);
    ReduceTaskLog.drain(sc.sc()); // every listener has seen every stage end
    if (sc.sc().uiWebUrl().isDefined()) { // what Spark's Prometheus servlet shows now, if set up
      out.put("prometheus", scrape(sc.sc().uiWebUrl().get() + "/metrics/prometheus"));
      out.put("coflowsTab", scrape(sc.sc().uiWebUrl().get() + "/coflows/"));
    }
    new ObjectMapper().writeValue(new File(args[0]), out);
    spark.stop();
  }

  /** Counts, after letting Spark drop the shuffles nothing references any more. */
  private static ObjectNode sample(JavaSparkContext sc, int job) throws Exception {
    for (int i = 0; i < 3; i++) {
      System.gc(); // the ContextCleaner unregisters a shuffle once its dependency is collected
      Thread.sleep(500);
    }
    ObjectNode s = new ObjectMapper().createObjectNode();
    s.put("job", job);
    ObjectNode driver = s.putObject("driver");
    counts(CoflowDriverPlugin.footprint()).forEach(driver::put);
    int slots = 2 * sc.sc().getExecutorIds().size() + 2;
    List<Tuple2<String, Map<String, Integer>>> perTask =
        sc.parallelize(IntStream.range(0, slots).boxed().toList(), slots)
            .map(i -> new Tuple2<>(SparkEnv.get().executorId(), counts(footprintHere())))
            .collect();
    ObjectNode executors = s.putObject("executors");
    for (Tuple2<String, Map<String, Integer>> t : perTask) {
      ObjectNode e = executors.putObject(t._1());
      t._2().forEach(e::put);
    }
    return s;
  }

  /** The text at {@code url}, or the error, for the result file. */
  private static String scrape(String url) {
    try {
      HttpResponse<String> r =
          HttpClient.newBuilder()
              .followRedirects(HttpClient.Redirect.NORMAL)
              .build()
              .send(
                  HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? r.body() : "HTTP " + r.statusCode();
    } catch (IOException e) {
      return "failed: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static Map<String, Integer> footprintHere() {
    return PacedFetchInstaller.footprint();
  }

  /** {@code parts} with this JVM's live threads and open file descriptors. */
  private static Map<String, Integer> counts(Map<String, Integer> parts) {
    Map<String, Integer> all = new TreeMap<>(parts);
    all.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
    all.put("fds", openFiles());
    return all;
  }

  private static int openFiles() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int) fds.count();
    } catch (IOException e) {
      return -1;
    }
  }
}
