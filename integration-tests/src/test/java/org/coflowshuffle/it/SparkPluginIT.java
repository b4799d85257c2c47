/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.coflowshuffle.it.DifferentialRuns.MANAGER;
import static org.coflowshuffle.it.DifferentialRuns.allQueries;
import static org.coflowshuffle.it.DifferentialRuns.assertPlaced;
import static org.coflowshuffle.it.DifferentialRuns.plugin;
import static org.coflowshuffle.it.DifferentialRuns.rddQueriesAnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.app.DecommissionApp;
import org.coflowshuffle.cli.spark.app.SqlWorkloadApp;
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

  private final ObjectMapper json = new ObjectMapper();
  private DifferentialRuns runs;
  private Path root;
  private Path work;

  @BeforeAll
  void findSparkAndRunStock() throws Exception {
    runs = DifferentialRuns.get();
    root = runs.root;
    work = runs.work;
  }

  @Test
  void pluginGivesStockResultsAndPlacesRddAndSqlReducers() throws Exception {
    // As on a real cluster, where executors sit on different hosts: fetches cross the network.
    JsonNode run =
        runs.run("plugin", plugin(Map.of("spark.shuffle.readHostLocalDisk", "false")), true);
    runs.assertSameResults(run, "plugin");
    assertTrue(
        runs.pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
    assertTrue(
        runs.earlyBytes(run) > 0,
        "reducers read by tasks of one partition were fetched as they were placed, before their"
            + " tasks asked");
    assertPlaced(run, allQueries());
    JsonNode p = run.get("placement");
    assertTrue(
        p.get("sql join (AQE on)").get("reduceTasks").asInt()
            < p.get("sql join (AQE off)").get("reduceTasks").asInt(),
        "AQE coalesced the join's partitions, so its tasks read runs of reducers: " + p);
    assertTrue(
        Pattern.compile(
                "hooks ready in \\d+ ms, (none|1) of Spark's classes rewritten after loading")
            .matcher(Files.readString(runs.log("plugin")))
            .find(),
        "the classes are woven as Spark loads them (the DAG scheduler's may load first if the agent"
            + " took longer to attach than the driver's start waits); see "
            + runs.log("plugin"));
  }

  /**
   * The shaded JAR as the driver's Java agent too: nothing attaches, Spark's classes are woven as
   * they load, none is rewritten after loading (which makes the JVM compile its code again), and
   * the reducers are placed as without it.
   */
  @Test
  void asTheDriversJavaAgentTheJarWeavesSparkAsItLoadsAndPlaces() throws Exception {
    JsonNode run =
        runs.run(
            "agent",
            plugin(
                Map.of(
                    "spark.shuffle.readHostLocalDisk",
                    "false",
                    "spark.driver.extraJavaOptions",
                    "-javaagent:" + runs.jars.plugin())),
            true);
    runs.assertSameResults(run, "agent");
    assertPlaced(run, allQueries());
    assertTrue(
        Files.readString(runs.log("agent"))
            .contains("none of Spark's classes rewritten after loading"),
        "the hooks were woven as Spark loaded its classes; see " + runs.log("agent"));
  }

  /**
   * Many SQL queries with adaptive execution at Spark's defaults: results as stock, and every stage
   * that reads a shuffle either placed, read where its map output is (a join turned into a
   * broadcast join), or split by adaptive execution (skew), never left for a fault. Prints the
   * fraction placed.
   */
  @Test
  void aSqlWorkloadOfManyQueriesGivesStockResultsAndItsShuffleReadsArePlaced() throws Exception {
    JsonNode stock = sqlWorkload("stock", Map.of(), false);
    JsonNode run = sqlWorkload("plugin", plugin(Map.of()), true);
    assertEquals(SqlWorkloadApp.QUERIES.size(), stock.get("results").size(), "every query ran");
    assertEquals(stock.get("results"), run.get("results"), "results as stock");
    long placed = run.get("placed").asLong();
    Map<String, Long> kept = new TreeMap<>();
    run.get("keptSpark")
        .fields()
        .forEachRemaining(e -> kept.put(e.getKey(), e.getValue().asLong()));
    long reads = run.get("shuffleReads").asLong();
    System.out.printf(
        "SQL workload, %d queries: %d distinct shuffle reads; %d placed (%.0f%%), kept Spark's: %s%n",
        SqlWorkloadApp.QUERIES.size(), reads, placed, 100.0 * placed / reads, kept);
    assertTrue(
        placed > 0,
        () -> "placed: 0, kept Spark's: " + kept + "; the driver warned:\n" + warnings());
    kept.keySet().removeAll(List.of("localRead", "sparkRead"));
    kept.values().removeIf(n -> n == 0);
    assertTrue(kept.isEmpty(), "no stage kept Spark's placement for another cause: " + kept);
    assertEquals(
        reads,
        placed
            + run.get("keptSpark").path("localRead").asLong()
            + run.get("keptSpark").path("sparkRead").asLong(),
        "each distinct shuffle read placed once, or said once why not");
  }

  /** The plugin's warnings in the SQL workload's driver log, read only for a failure message. */
  private String warnings() {
    try {
      return runs.coflowWarnings("sql-workload-plugin");
    } catch (IOException e) {
      return "(log not readable: " + e + ")";
    }
  }

  private JsonNode sqlWorkload(String name, Map<String, String> conf, boolean pluginJar)
      throws Exception {
    Path result = work.resolve("sql-workload-" + name + ".json");
    Files.deleteIfExists(result);
    runs.submit(
        SqlWorkloadApp.class.getName(),
        "sql-workload-" + name,
        conf,
        pluginJar,
        List.of(result.toString()));
    return json.readTree(result.toFile());
  }

  @Test
  void shuffleManagerWithoutThePluginFallsBackAndSaysWhyOnce() throws Exception {
    JsonNode run = runs.run("manager-only", Map.of("spark.shuffle.manager", MANAGER), true);
    runs.assertSameResults(run, "manager only");
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
    JsonNode run = runs.run("bad-scheme", plugin(Map.of("spark.coflow.scheme", "fastest")), true);
    runs.assertSameResults(run, "bad scheme");
    String log = Files.readString(work.resolve("differential-bad-scheme.log"));
    long lines =
        log.lines()
            .filter(l -> l.contains("coflow: Spark places reducers itself: bad setting"))
            .count();
    assertEquals(1, lines, "exactly one line says why");
  }

  @Test
  void withPlacementOffSparkPlacesReducersAndTheCoordinatorStillPacesTheirFlows() throws Exception {
    JsonNode run =
        runs.run(
            "rates-only",
            plugin(
                Map.of(
                    "spark.shuffle.readHostLocalDisk", "false",
                    "spark.coflow.placement.enabled", "false")),
            true);
    runs.assertSameResults(run, "rates only");
    String log = Files.readString(runs.log("rates-only"));
    assertTrue(log.contains("coflow: Spark places reducers, their flows are paced by scheme rpc"));
    assertTrue(log.contains("; Spark places its reducers"), "each coflow is known, not placed");
    Matcher use = Pattern.compile("the planned rates took at most ([0-9.]+)%").matcher(log);
    assertTrue(use.find(), "the coordinator planned rates");
    assertTrue(Double.parseDouble(use.group(1)) > 0, "its flows were paced: " + use.group());
    assertTrue(runs.pacedBytes(run) > 1_000_000, "through the paced fetch");
  }

  @Test
  void withSpeculationResultsStayStockAndFetchesPaced() throws Exception {
    // Speculative copies of tasks as eagerly as Spark allows: a copy of a reduce task fetches the
    // same flows from wherever it runs, and whichever attempt ends first wins.
    JsonNode run =
        runs.run(
            "speculation",
            plugin(
                Map.of(
                    "spark.shuffle.readHostLocalDisk", "false",
                    "spark.speculation", "true",
                    "spark.speculation.interval", "50ms",
                    "spark.speculation.multiplier", "1.0",
                    "spark.speculation.quantile", "0.1",
                    "spark.speculation.minTaskRuntime", "1ms")),
            true);
    runs.assertSameResults(run, "speculation");
    assertTrue(
        runs.pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
  }

  @Test
  void anExecutorDecommissionedWithShuffleMigrationLosesNoMapOutput() throws Exception {
    Path result = runs.work.resolve("decommission.json");
    Files.deleteIfExists(result);
    runs.submit(
        DecommissionApp.class.getName(),
        "decommission",
        plugin(
            Map.of(
                "spark.ui.enabled", "false",
                "spark.shuffle.readHostLocalDisk", "false",
                "spark.decommission.enabled", "true",
                "spark.storage.decommission.enabled", "true",
                "spark.storage.decommission.shuffleBlocks.enabled", "true",
                "spark.storage.decommission.rddBlocks.enabled", "false",
                // it looks for blocks left to move every 30 s by default, then leaves
                "spark.storage.decommission.replicationReattemptInterval", "1s")),
        true,
        List.of(result.toString()));
    JsonNode run = new ObjectMapper().readTree(result.toFile());
    assertTrue(run.get("right").asBoolean(), "both reads' answers: " + run);
    assertTrue(run.get("gone").asBoolean(), "the executor left: " + run);
    assertEquals(0, run.get("recomputedMapTasks").asInt(), "its map output moved: " + run);
    // The second read is placed anew, on the executors left.
    Matcher placed =
        Pattern.compile("shuffle \\[0\\] \\(4 reducers\\) placed by rpc on executors \\[([^]]*)\\]")
            .matcher(Files.readString(runs.log("decommission")));
    List<String> placements = new ArrayList<>();
    while (placed.find()) {
      placements.add(placed.group(1));
    }
    assertEquals(2, placements.size(), "placed for each read: " + placements);
    assertFalse(
        List.of(placements.get(1).split(", ")).contains(run.get("decommissioned").asText()),
        "not on the executor that left: " + placements);
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
        .mapToLong(l -> (long) Double.parseDouble(l.substring(series.length())))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aStandaloneCoordinatorPlacesAndPacesLikeTheEmbeddedOne() throws Exception {
    // Under a principal's own secret, so every frame after the hello is sealed.
    Path secrets = Files.writeString(work.resolve("coordinator-secrets"), "team-it=it-secret\n");
    try (CoordinatorServer server =
        CoordinatorServer.start(
            CoordinatorConf.from(
                Map.of(
                    CoordinatorConf.PORT.name(), "0",
                    CoordinatorConf.HTTP_PORT.name(), "0",
                    CoordinatorConf.BIND.name(), "127.0.0.1",
                    CoordinatorConf.SECRETS_FILE.name(), secrets.toString())))) {
      JsonNode run =
          runs.run(
              "standalone",
              plugin(
                  Map.of(
                      "spark.shuffle.readHostLocalDisk", "false",
                      "spark.coflow.coordinator", "127.0.0.1:" + server.address().getPort(),
                      "spark.coflow.coordinator.principal", "team-it",
                      "spark.coflow.coordinator.secret", "it-secret")),
              true);
      runs.assertSameResults(run, "standalone coordinator");
      assertTrue(frames(server, "MAP_OUTPUT") > 0, "map output reached the service");
      assertTrue(frames(server, "PLACEMENT_REQUEST") > 0, "placements were asked");
      assertTrue(frames(server, "RATE_REQUEST") > 0, "rates were asked");
      assertTrue(
          runs.pacedBytes(run) > 1_000_000, "remote shuffle blocks went through the paced fetch");
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
          runs.run(
              "standalone-killed",
              plugin(Map.of("spark.coflow.coordinator", "127.0.0.1:" + port)),
              true);
      runs.assertSameResults(run, "standalone coordinator killed");
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

  /**
   * Runs {@code coflow terasort} on the local cluster; returns its JSON summary, asserting it
   * exited 0 and every sort it made validated.
   */
  private JsonNode terasort(String name, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setProperty("coflow.home", root.toString());
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.addAll(List.of("--local", "--work", work.resolve(name).toString(), "--json"));
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
    assertTrue(summary.path("stock").path("valid").asBoolean(true), "TeraValidate of stock");
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
          "127.0.0.1:" + server.address().getPort(),
          "--runs",
          "plugin"); // what falls back is the plugin's run: stock's would only add time
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
        "127.0.0.1:" + port,
        "--runs",
        "plugin");
    assertEquals(1, coordinatorAwayLines("terasort-absent"), "one line says it fell back");
  }
}
