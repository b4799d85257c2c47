/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.spark.SparkDistribution;
import org.coflowshuffle.cli.spark.SparkSubmit;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.app.DifferentialApp;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The plugin as users run it: {@code spark-submit} of the stock Spark distribution (the PyPI
 * package's), {@code local-cluster} with executors in their own JVMs, the shaded JAR through {@code
 * --jars}. Every run is compared with a stock run of the same application.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkPluginIT {

  private static final String MASTER = "local-cluster[2,1,1024]";
  private static final String MANAGER = "org.coflowshuffle.spark.CoflowShuffleManager";
  private static final String PLUGIN = "org.coflowshuffle.spark.CoflowPlugin";

  private final ObjectMapper json = new ObjectMapper();
  private Path root;
  private Path spark;
  private TerasortCommand.Jars jars;
  private Path work;
  private JsonNode stock;

  @BeforeAll
  void findSparkAndRunStock() throws Exception {
    root = Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
    spark = SparkDistribution.home(root, System.err);
    jars = TerasortCommand.Jars.find(root);
    work = Files.createDirectories(root.resolve("integration-tests/target/it-work"));
    stock = differential("stock", Map.of(), false);
  }

  /** Runs {@link DifferentialApp}; returns its JSON. */
  private JsonNode differential(String name, Map<String, String> extra, boolean pluginJar)
      throws Exception {
    Map<String, String> conf = new java.util.LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.putAll(extra);
    Path result = work.resolve("differential-" + name + ".json");
    Files.deleteIfExists(result);
    Path log = work.resolve("differential-" + name + ".log");
    int status =
        new SparkSubmit(
                spark,
                MASTER,
                DifferentialApp.class.getName(),
                jars.app(),
                pluginJar ? List.of(jars.plugin()) : List.of(),
                conf,
                Map.of())
            .run(List.of(result.toString()), log);
    assertEquals(0, status, "spark-submit " + name + " failed; see " + log);
    return json.readTree(result.toFile());
  }

  private static Map<String, String> plugin(Map<String, String> more) {
    Map<String, String> conf = new java.util.LinkedHashMap<>();
    conf.put("spark.shuffle.manager", MANAGER);
    conf.put("spark.plugins", PLUGIN);
    conf.putAll(more);
    return conf;
  }

  private void assertSameResults(JsonNode run, String name) {
    JsonNode expected = stock.get("results");
    assertEquals(10, expected.size(), "every query ran in the stock run");
    expected
        .fieldNames()
        .forEachRemaining(
            q ->
                assertEquals(
                    expected.get(q).asText(),
                    run.get("results").path(q).asText(),
                    name + ": " + q + " differs from stock Spark"));
  }

  /**
   * Bytes the executors of an application fetched through the paced transport: per executor log,
   * the largest running total it printed (after each task and at shutdown).
   */
  private long pacedBytes(JsonNode run) throws IOException {
    Path app = spark.resolve("work").resolve(run.get("applicationId").asText());
    long sum = 0;
    try (var logs = Files.walk(app)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
        long most = 0;
        for (String line : Files.readAllLines(log)) {
          int at = line.indexOf("coflow: ");
          if (at >= 0 && line.endsWith(" bytes of shuffle blocks fetched paced")) {
            most =
                Math.max(most, Long.parseLong(line.substring(at + 8, line.indexOf(' ', at + 8))));
          }
        }
        sum += most;
      }
    }
    return sum;
  }

  /** The RDD queries of {@code DifferentialApp}, then {@code more}. */
  private static List<String> rddQueriesAnd(String... more) {
    List<String> queries =
        new ArrayList<>(List.of("rdd reduceByKey", "rdd groupByKey", "rdd sortByKey", "rdd join"));
    queries.addAll(List.of(more));
    return queries;
  }

  /**
   * Every query ran reduce tasks, and at least 95% of them ran where the coordinator placed them.
   */
  private static void assertPlaced(JsonNode run, List<String> queries) {
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

  @Test
  void pluginGivesStockResultsAndPlacesRddAndSqlReducers() throws Exception {
    // As on a real cluster, where executors sit on different hosts: fetches cross the network.
    JsonNode run =
        differential("plugin", plugin(Map.of("spark.shuffle.readHostLocalDisk", "false")), true);
    assertSameResults(run, "plugin");
    assertTrue(pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
    assertPlaced(
        run,
        rddQueriesAnd(
            "sql join (AQE off)",
            "sql aggregate (AQE off)",
            "sql order by (AQE off)",
            "sql join (AQE on)",
            "sql aggregate (AQE on)",
            "sql order by (AQE on)"));
    JsonNode p = run.get("placement");
    assertTrue(
        p.get("sql join (AQE on)").get("reduceTasks").asInt()
            < p.get("sql join (AQE off)").get("reduceTasks").asInt(),
        "AQE coalesced the join's partitions, so its tasks read runs of reducers: " + p);
  }

  @Test
  void underSparksAuthenticationAndEncryptionFetchesArePacedAuthenticated() throws Exception {
    JsonNode run =
        differential(
            "authenticated",
            plugin(
                Map.of(
                    "spark.shuffle.readHostLocalDisk", "false",
                    "spark.authenticate", "true",
                    "spark.authenticate.secret", "it-secret",
                    "spark.network.crypto.enabled", "true")),
            true);
    assertSameResults(run, "authenticated");
    assertPlaced(run, rddQueriesAnd("sql join (AQE off)", "sql aggregate (AQE off)"));
    assertTrue(pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
    assertTrue(
        executorLines(run).stream()
            .anyMatch(l -> l.contains(", authenticated as Spark's transfers are")),
        "the executors' paced servers authenticate");
  }

  /** Every line the executors of an application logged. */
  private List<String> executorLines(JsonNode run) throws IOException {
    Path app = spark.resolve("work").resolve(run.get("applicationId").asText());
    List<String> lines = new ArrayList<>();
    try (var logs = Files.walk(app)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().equals("stderr")).toList()) {
        lines.addAll(Files.readAllLines(log));
      }
    }
    return lines;
  }

  @Test
  void shuffleManagerWithoutThePluginFallsBackAndSaysWhyOnce() throws Exception {
    JsonNode run = differential("manager-only", Map.of("spark.shuffle.manager", MANAGER), true);
    assertSameResults(run, "manager only");
    String log = Files.readString(work.resolve("differential-manager-only.log"));
    long lines =
        log.lines()
            .filter(
                l -> l.contains("coflow: spark.plugins lacks org.coflowshuffle.spark.CoflowPlugin"))
            .count();
    assertEquals(1, lines, "exactly one line in the driver's log says why");
  }

  @Test
  void aBadSettingFallsBackToSparksPlacementWithOneLine() throws Exception {
    JsonNode run =
        differential("bad-scheme", plugin(Map.of("spark.coflow.scheme", "fastest")), true);
    assertSameResults(run, "bad scheme");
    String log = Files.readString(work.resolve("differential-bad-scheme.log"));
    long lines =
        log.lines()
            .filter(l -> l.contains("coflow: Spark places reducers itself: bad setting"))
            .count();
    assertEquals(1, lines, "exactly one line says why");
  }

  /** A standalone coordinator on a free port, serving loopback. */
  private static CoordinatorServer coordinator() throws IOException {
    return CoordinatorServer.start(CoordinatorConf.defaults(0, 0));
  }

  private static long frames(CoordinatorServer server, String type) {
    String series = "coflow_frames_received_total{type=\"" + type + "\"} ";
    return server
        .metricsText()
        .lines()
        .filter(l -> l.startsWith(series))
        .mapToLong(l -> Long.parseLong(l.substring(series.length())))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aStandaloneCoordinatorPlacesAndPacesLikeTheEmbeddedOne() throws Exception {
    try (CoordinatorServer server = coordinator()) {
      JsonNode run =
          differential(
              "standalone",
              plugin(
                  Map.of(
                      "spark.shuffle.readHostLocalDisk",
                      "false",
                      "spark.coflow.coordinator",
                      "127.0.0.1:" + server.address().getPort())),
              true);
      assertSameResults(run, "standalone coordinator");
      assertTrue(frames(server, "MAP_OUTPUT") > 0, "map output reached the service");
      assertTrue(frames(server, "PLACEMENT_REQUEST") > 0, "placements were asked");
      assertTrue(frames(server, "RATE_REQUEST") > 0, "rates were asked");
      assertTrue(pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
      assertPlaced(run, rddQueriesAnd("sql join (AQE on)"));
      String log = Files.readString(work.resolve("differential-standalone.log"));
      assertTrue(log.contains("coflow: standalone coordinator at 127.0.0.1:"), "connected line");
    }
  }

  @Test
  void losingTheStandaloneCoordinatorMidJobLosesNothing() throws Exception {
    CoordinatorServer server = coordinator();
    int port = server.address().getPort();
    Thread killer =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + 300_000_000_000L;
              while (frames(server, "PLACEMENT_REQUEST") == 0 && System.nanoTime() < deadline) {
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
              server.close(); // mid-application: the first stage was just placed
            });
    killer.start();
    try {
      JsonNode run =
          differential(
              "standalone-killed",
              plugin(Map.of("spark.coflow.coordinator", "127.0.0.1:" + port)),
              true);
      assertSameResults(run, "standalone coordinator killed");
    } finally {
      killer.interrupt();
      server.close();
    }
    String log = Files.readString(work.resolve("differential-standalone-killed.log"));
    long lost =
        log.lines()
            .filter(l -> l.contains("unreachable, Spark places reducers and fetches unpaced"))
            .count();
    assertEquals(1, lost, "exactly one line says the coordinator went away");
  }

  /** Runs {@code coflow terasort}; returns its JSON summary, asserting it exited 0. */
  private JsonNode terasort(String name, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setProperty("coflow.home", root.toString());
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.addAll(List.of("--work", work.resolve(name).toString(), "--json"));
    int status =
        new TerasortCommand()
            .run(
                all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                System.in);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
    List<String> lines = text.lines().toList();
    JsonNode summary = json.readTree(lines.get(lines.size() - 1));
    assertTrue(summary.get("valid").asBoolean(), text);
    assertTrue(summary.get("stock").get("valid").asBoolean());
    assertTrue(summary.get("plugin").get("valid").asBoolean(), "TeraValidate of the plugin run");
    return summary;
  }

  /** Lines of the plugin run's driver log that say the standalone coordinator is away. */
  private long coordinatorAwayLines(String name) throws IOException {
    return Files.readString(work.resolve(name).resolve("logs/plugin.log"))
        .lines()
        .filter(l -> l.contains("unreachable, Spark places reducers and fetches unpaced"))
        .count();
  }

  @Test
  void terasortWithThreeConcurrentJobsIsValidAndPlacedAsChosen() throws Exception {
    JsonNode summary = terasort("terasort", "--size", "30m", "--jobs", "3", "--executors", "3");
    assertTrue(summary.get("placementMatch").asDouble() >= 0.95, summary.toString());
  }

  @Test
  void terasortValidatesWhenTheCoordinatorIsKilledMidShuffle() throws Exception {
    CoordinatorServer server = coordinator();
    Thread killer =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + 600_000_000_000L;
              while (frames(server, "PLACEMENT_REQUEST") == 0 && System.nanoTime() < deadline) {
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
              server.close(); // the first sort's map output is in, its reducers just placed
            });
    killer.start();
    try {
      terasort(
          "terasort-killed",
          "--size",
          "30m",
          "--jobs",
          "3",
          "--executors",
          "3",
          "--coordinator",
          "127.0.0.1:" + server.address().getPort());
    } finally {
      killer.interrupt();
      server.close();
    }
    assertEquals(1, coordinatorAwayLines("terasort-killed"), "one line says it fell back");
  }

  @Test
  void terasortValidatesWhenTheCoordinatorIsAbsentFromTheStart() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort(); // free: nothing listens there
    }
    terasort(
        "terasort-absent",
        "--size",
        "30m",
        "--jobs",
        "1",
        "--executors",
        "2",
        "--coordinator",
        "127.0.0.1:" + port);
    assertEquals(1, coordinatorAwayLines("terasort-absent"), "one line says it fell back");
  }
}
