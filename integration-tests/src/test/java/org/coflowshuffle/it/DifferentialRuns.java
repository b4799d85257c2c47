/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coflowshuffle.cli.spark.SparkDistribution;
import org.coflowshuffle.cli.spark.SparkSubmit;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.app.DifferentialApp;

/**
 * Runs of {@link DifferentialApp} by {@code spark-submit} of the stock Spark distribution on {@code
 * local-cluster} (executors in their own JVMs, the shaded JAR through {@code --jars}), and what the
 * tests read from them: results against one stock run shared by every test class, placement, the
 * executors' logs.
 */
final class DifferentialRuns {

  static final String MASTER = "local-cluster[2,1,1024]";
  static final String MANAGER = "org.coflowshuffle.spark.CoflowShuffleManager";
  static final String PLUGIN = "org.coflowshuffle.spark.CoflowPlugin";

  private static DifferentialRuns shared;
  private static final Map<String, DifferentialRuns> releases = new java.util.HashMap<>();

  private final ObjectMapper json = new ObjectMapper();
  final Path root;
  final Path spark;
  final TerasortCommand.Jars jars;
  final Path work;

  /** Prefixes the names of this Spark's runs (empty for the targeted release). */
  private final String tag;

  private final JsonNode stock;

  /**
   * Runs on {@code spark} compared with the {@code stock} run's JSON, or with its own stock run.
   */
  private DifferentialRuns(Path root, Path spark, String tag, JsonNode stock) throws Exception {
    this.root = root;
    this.spark = spark;
    this.tag = tag;
    jars = TerasortCommand.Jars.find(root);
    work = Files.createDirectories(root.resolve("integration-tests/target/it-work"));
    this.stock =
        stock != null ? stock : json.readTree(submit("stock", Map.of(), false, List.of()).toFile());
  }

  private static Path root() {
    return Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
  }

  /** The runs of this JVM, with the stock run made on first use. */
  static synchronized DifferentialRuns get() throws Exception {
    if (shared == null) {
      Path root = root();
      shared = new DifferentialRuns(root, SparkDistribution.home(root, System.err), "", null);
    }
    return shared;
  }

  /**
   * Runs on another Spark release, {@code pyspark==version} from PyPI, their files named {@code
   * differential-VERSION-NAME}. Their results are compared with the targeted release's stock run:
   * the queries ask nothing whose answer a release may change (every digest is of a total order or
   * of sorted rows).
   */
  static synchronized DifferentialRuns release(String version) throws Exception {
    DifferentialRuns r = releases.get(version);
    if (r == null) {
      Path root = root();
      r =
          new DifferentialRuns(
              root,
              SparkDistribution.release(root, version, System.err),
              version + "-",
              get().stock);
      releases.put(version, r);
    }
    return r;
  }

  /** Runs the application with {@code extra} settings; returns its JSON. */
  JsonNode run(String name, Map<String, String> extra, boolean pluginJar) throws Exception {
    return json.readTree(submit(name, extra, pluginJar, List.of()).toFile());
  }

  /**
   * Runs the application, its output in {@code differential-NAME.json}, its log in {@code
   * differential-NAME.log}; {@code more} follows the result file on the command line.
   *
   * @return the result file
   */
  Path submit(String name, Map<String, String> extra, boolean pluginJar, List<String> more)
      throws Exception {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.putAll(extra);
    Path result = work.resolve("differential-" + tag + name + ".json");
    Files.deleteIfExists(result);
    List<String> args = new ArrayList<>(List.of(result.toString()));
    args.addAll(more);
    submit(DifferentialApp.class.getName(), name, conf, pluginJar, args);
    return result;
  }

  /**
   * Runs {@code mainClass} of the application JAR with {@code args}, its log in {@code
   * differential-NAME.log}, and checks that it succeeded.
   */
  void submit(
      String mainClass, String name, Map<String, String> conf, boolean pluginJar, List<String> args)
      throws Exception {
    Path log = log(name);
    int status =
        new SparkSubmit(
                spark,
                MASTER,
                mainClass,
                jars.app(),
                pluginJar ? List.of(jars.plugin()) : List.of(),
                conf,
                Map.of())
            .run(args, log);
    assertEquals(0, status, "spark-submit " + name + " failed; see " + log);
  }

  /**
   * Waits (at most 5 minutes) until an application given {@code hold} as its HOLD_FILE holds;
   * returns its id. A fresh {@code hold}: any earlier hold and release files are deleted first.
   */
  static String awaitHold(Path hold, Future<?> job, Path log) throws Exception {
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!Files.exists(hold) || Files.size(hold) == 0) {
      if (job.isDone()) {
        job.get(); // its failure, or that it ended without holding
        throw new AssertionError("the application ended without holding; see " + log);
      }
      assertTrue(System.nanoTime() < until, "the application did not hold in 5 min; see " + log);
      Thread.sleep(200);
    }
    return Files.readString(hold).trim();
  }

  /** Deletes what an earlier run left of {@code hold} and its release file. */
  static void clearHold(Path hold) throws IOException {
    Files.deleteIfExists(hold);
    Files.deleteIfExists(release(hold));
  }

  /** Lets the application holding on {@code hold} go on (the file DifferentialApp waits for). */
  static void releaseHold(Path hold) throws IOException {
    Files.createFile(release(hold));
  }

  private static Path release(Path hold) {
    return hold.resolveSibling(hold.getFileName() + ".go");
  }

  Path log(String name) {
    return work.resolve("differential-" + tag + name + ".log");
  }

  /**
   * The plugin's warnings in the log of run {@code name}, for a failed assertion to name: CI shows
   * the failure's message, not the log.
   */
  String coflowWarnings(String name) throws IOException {
    return String.join(
        "\n",
        Files.readAllLines(log(name)).stream()
            .filter(line -> line.contains(" WARN ") && line.contains("coflow:"))
            .toList());
  }

  /** The plugin's two settings, then {@code more}. */
  static Map<String, String> plugin(Map<String, String> more) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.shuffle.manager", MANAGER);
    conf.put("spark.plugins", PLUGIN);
    conf.putAll(more);
    return conf;
  }

  void assertSameResults(JsonNode run, String name) {
    JsonNode expected = stock.get("results");
    assertEquals(11, expected.size(), "every query ran in the stock run");
    expected
        .fieldNames()
        .forEachRemaining(
            q ->
                assertEquals(
                    expected.get(q).asText(),
                    run.get("results").path(q).asText(),
                    name + ": " + q + " differs from stock Spark"));
  }

  /** Every query of {@code DifferentialApp}: RDD, then SQL with AQE off and on. */
  static List<String> allQueries() {
    return rddQueriesAnd(
        "sql join (AQE off)",
        "sql aggregate (AQE off)",
        "sql order by (AQE off)",
        "sql join (AQE on)",
        "sql aggregate (AQE on)",
        "sql order by (AQE on)");
  }

  /** The RDD queries of {@code DifferentialApp}, then {@code more}. */
  static List<String> rddQueriesAnd(String... more) {
    List<String> queries =
        new ArrayList<>(
            List.of(
                "rdd reduceByKey", "rdd groupByKey", "rdd sortByKey", "rdd join", "rdd barrier"));
    queries.addAll(List.of(more));
    return queries;
  }

  /**
   * Every query ran reduce tasks, and at least 95% of them ran where the coordinator placed them.
   */
  static void assertPlaced(JsonNode run, List<String> queries) {
    int tasks = 0;
    int placed = 0;
    for (String q : queries) {
      JsonNode p = run.get("placement").get(q);
      assertTrue(p.get("reduceTasks").asInt() > 0, q + " ran reduce tasks");
      tasks += p.get("reduceTasks").asInt();
      placed += p.get("placed").asInt();
    }
    assertTrue(placed >= 0.95 * tasks, "placement match " + placed + "/" + tasks);
  }

  /**
   * Bytes the executors of an application fetched through the paced transport: per executor log,
   * the largest running total it printed (after each task and at shutdown).
   */
  /** The executors' line: bytes fetched paced, and how many of them ahead of their tasks. */
  private static final Pattern PACED =
      Pattern.compile(
          "coflow: (\\d+) bytes of shuffle blocks fetched paced, (\\d+) of them before their"
              + " tasks asked$");

  long pacedBytes(String appId) throws IOException {
    return executorTotal(appId, 1);
  }

  /** Of {@link #pacedBytes}, those fetched before their reduce tasks asked for them. */
  long earlyBytes(JsonNode run) throws IOException {
    return executorTotal(run.get("applicationId").asText(), 2);
  }

  /** Summed over the executors, the last figure each logged in group {@code column} of PACED. */
  private long executorTotal(String appId, int column) throws IOException {
    long sum = 0;
    for (List<String> log : executorLogs(appId)) {
      long most = 0;
      for (String line : log) {
        Matcher m = PACED.matcher(line);
        if (m.find()) {
          most = Math.max(most, Long.parseLong(m.group(column)));
        }
      }
      sum += most;
    }
    return sum;
  }

  long pacedBytes(JsonNode run) throws IOException {
    return pacedBytes(run.get("applicationId").asText());
  }

  /** Every line the executors of an application logged so far. */
  List<String> executorLines(String appId) throws IOException {
    List<String> lines = new ArrayList<>();
    executorLogs(appId).forEach(lines::addAll);
    return lines;
  }

  private List<List<String>> executorLogs(String appId) throws IOException {
    Path app = spark.resolve("work").resolve(appId);
    List<List<String>> logs = new ArrayList<>();
    try (var files = Files.walk(app)) {
      for (Path log : files.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
        logs.add(Files.readAllLines(log));
      }
    }
    return logs;
  }
}
