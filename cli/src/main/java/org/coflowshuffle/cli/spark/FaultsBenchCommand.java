/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.coflowshuffle.cli.CoflowCli;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.cli.spark.TerasortCommand.Jars;
import org.coflowshuffle.cli.spark.TerasortCommand.Options;
import org.coflowshuffle.cli.spark.TerasortRuns.Cluster;
import org.coflowshuffle.cli.spark.TerasortRuns.Variant;
import org.coflowshuffle.cli.testbed.HostLink;
import org.coflowshuffle.cli.testbed.TestbedCommands;
import org.coflowshuffle.cli.testbed.TestbedSpark;
import org.coflowshuffle.cli.testbed.TestbedYarn;

/**
 * {@code coflow bench faults} ({@link #OPTIONS}): a fault drill on YARN on the testbed. Each
 * scenario is one terasort with the plugin, and one fault injected once its reduce stage is placed
 * (mid-shuffle): a sender's link that drops every packet, an executor killed, the NodeManager that
 * serves the shuffle files killed and started again (recovery on), the standalone coordinator
 * killed or stopped for longer than the timeouts. Prints per scenario whether the output validated,
 * how long the run took and how many map tasks Spark ran again; a run that has not ended 15 minutes
 * after its fault counts as hung (and invalid).
 *
 * <p>The drill runs Spark with short failure timeouts, as an operator who wants faults noticed in
 * seconds would ({@link #DRILL_CONF}), so that every scenario ends in a few minutes. The victim is
 * the last host that does not run the application's master.
 */
public final class FaultsBenchCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench faults",
              "fault drill on YARN on the testbed: terasort with one fault injected mid-shuffle")
          .repeatableValue("--scenario", "NAME", "run only these (repeatable; default all)")
          .value("--hosts", "4", "testbed hosts, one NodeManager each")
          .value("--mbit", "10", "every host's link, Mbit/s")
          .value("--size", "120m", "data to sort, bytes (k, m, g: powers of ten)")
          .value("--cores", "2", "cores per executor, one executor per host")
          .value("--work", "DIR", "data, outputs and logs (default TMPDIR/coflow-faults)")
          .flag("--json", "end with one JSON line");

  private static final String PREFIX = "coflow bench faults: ";

  /** The scenarios, in the order they run: the one that cuts a host off last. */
  static final List<String> SCENARIOS =
      List.of(
          "executor-killed",
          "nodemanager-restarted",
          "coordinator-killed",
          "coordinator-stalled",
          "sender-blackholed");

  /** Spark's failure timeouts for the drill: faults noticed in seconds, not minutes. */
  static final Map<String, String> DRILL_CONF =
      Map.of(
          "spark.network.timeout", "20s",
          "spark.network.timeoutInterval", "5s",
          "spark.executor.heartbeatInterval", "2s",
          "spark.shuffle.io.maxRetries", "2",
          "spark.shuffle.io.retryWait", "2s");

  /**
   * For the NodeManager's restart: fetches retry for 30 s, the time a NodeManager takes to start.
   */
  static final Map<String, String> RESTART_CONF =
      Map.of("spark.shuffle.io.maxRetries", "10", "spark.shuffle.io.retryWait", "3s");

  /** A run that has not ended this long after its fault hangs. */
  private static final long HANG_MINUTES = 15;

  /**
   * How long a coordinator stays stopped: past the driver's 15 s silence and 5 s placement wait.
   */
  private static final long STALL_SECONDS = 30;

  private static final Pattern PLACED = Pattern.compile("coflow: shuffle \\[.*\\] .*placed by");
  private static final Pattern APP_ID = Pattern.compile("(application_\\d+_\\d+)");

  /**
   * The line an executor logs when a paced fetch waited for a rate beyond its limit: the
   * coordinator held it with nothing to lift the hold, which a fault must never cause.
   */
  private static final String HELD = "a fetch was held for";

  /**
   * One scenario's outcome; {@code heldFetches} counts the executors' {@link #HELD} lines (-1: the
   * logs were not found).
   */
  record Outcome(
      boolean valid, double seconds, int recomputedMapTasks, int heldFetches, String note) {

    Outcome withHeldFetches(int held) {
      return new Outcome(valid, seconds, recomputedMapTasks, held, note);
    }
  }

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    List<String> scenarios;
    Options o;
    int hosts;
    int mbit;
    try {
      Flags f = OPTIONS.parse(args);
      scenarios = f.has("--scenario") ? f.all("--scenario") : SCENARIOS;
      for (String s : scenarios) {
        if (!SCENARIOS.contains(s)) {
          throw new IllegalArgumentException(
              "--scenario: expected one of " + String.join(", ", SCENARIOS) + ", got " + s);
        }
      }
      hosts = f.positiveInt("--hosts", 4);
      mbit = f.positiveInt("--mbit", 10);
      int cores = f.positiveInt("--cores", 2);
      o =
          new Options(
              TerasortCommand.bytes(f.string("--size", "120m")),
              1,
              hosts,
              cores,
              hosts,
              1024,
              "rpc",
              Path.of(
                  f.string(
                      "--work",
                      Path.of(System.getProperty("java.io.tmpdir"), "coflow-faults").toString())),
              f.has("--json"),
              TerasortCommand.Where.TESTBED_UP,
              mbit,
              false,
              true,
              null,
              Map.of());
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    Path root = Path.of(System.getProperty("coflow.home", "."));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Path spark = SparkDistribution.home(root, err);
      Jars jars = Jars.find(root);
      Files.createDirectories(o.work().resolve("logs"));
      try (TestbedCommands.Session testbed =
              TestbedCommands.session("homogeneous", hosts, mbit, err);
          TestbedYarn yarn =
              TestbedYarn.start(
                  TestbedYarn.hadoopClassPath(root),
                  TestbedCommands.gateway(),
                  testbed.hosts(),
                  new TestbedYarn.Nodes(
                      o.executorMemoryMb(),
                      TestbedYarn.coflowService(jars.service(), Map.of()),
                      true),
                  o.work().resolve("yarn"))) {
        Map<String, String> conf =
            new LinkedHashMap<>(yarn.sparkConf(spark, hosts, o.cores(), o.executorMemoryMb()));
        conf.putAll(DRILL_CONF);
        Cluster cluster =
            new Cluster(
                "yarn",
                "YARN on the testbed, " + hosts + " hosts at " + mbit + " Mbit/s",
                conf,
                Map.of("HADOOP_CONF_DIR", yarn.confDir().toString()),
                TestbedSpark.linkConf(testbed.hosts()));
        TerasortRuns runs = new TerasortRuns(spark, jars, o, cluster, List.of(), err);
        Path gen = runs.generate();
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String s : scenarios) {
          outcomes.put(s, scenario(s, runs, gen, testbed, yarn, o, pool, err));
        }
        print(out, o, cluster, outcomes);
        boolean valid = outcomes.values().stream().allMatch(Outcome::valid);
        if (o.json()) {
          out.println(json(outcomes));
        }
        return valid ? 0 : FAILURE;
      }
    } catch (IOException | IllegalStateException | InterruptedException e) {
      return TerasortRuns.fail(PREFIX, e, err);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Runs one scenario: the terasort, the fault once its reduce stage is placed, the outcome. */
  private static Outcome scenario(
      String name,
      TerasortRuns runs,
      Path gen,
      TestbedCommands.Session testbed,
      TestbedYarn yarn,
      Options o,
      ExecutorService pool,
      PrintStream err)
      throws IOException, InterruptedException {
    Map<String, String> plugin = new LinkedHashMap<>();
    plugin.put(TerasortCommand.SCHEME_KEY, "rpc");
    Process coordinator = null;
    if (name.equals("nodemanager-restarted")) {
      plugin.putAll(TestbedYarn.serviceConf());
      plugin.putAll(RESTART_CONF);
    }
    if (name.startsWith("coordinator-")) {
      int port = freePort();
      coordinator = startCoordinator(port, o.work().resolve("logs/coordinator-" + name + ".log"));
      plugin.put("spark.coflow.coordinator", "127.0.0.1:" + port);
    }
    Path log = o.work().resolve("logs/" + name + ".log");
    Files.deleteIfExists(log);
    long start = System.nanoTime();
    Future<JsonNode> run = pool.submit(() -> runs.sort(new Variant(name, Map.copyOf(plugin)), gen));
    HostLink victim = null;
    try {
      String appId = awaitPlaced(log, run);
      if (appId == null) {
        return ended(run, start, "the run ended before its reduce stage was placed: no fault");
      }
      Thread.sleep(2000); // mid-shuffle
      victim = victim(testbed.hosts(), yarn.amHost(appId));
      err.printf(Locale.ROOT, "coflow: %s on %s (%s)%n", name, victim.name(), appId);
      switch (name) {
        case "sender-blackholed" -> testbed.testbed().blackhole(victim);
        case "executor-killed" -> {
          if (yarn.killExecutors(victim.name()) == 0) {
            return ended(run, start, "no executor found on " + victim.name());
          }
        }
        case "nodemanager-restarted" -> {
          yarn.killNodeManagerOnly(victim.name());
          Thread.sleep(2000);
          yarn.startNodeManager(victim.name());
          awaitPort(victim.address(), 7337);
        }
        case "coordinator-killed" -> coordinator.destroyForcibly().waitFor();
        case "coordinator-stalled" -> {
          signal("STOP", coordinator.pid());
          Thread.sleep(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
          signal("CONT", coordinator.pid());
        }
        default -> throw new IllegalArgumentException(name);
      }
      return ended(run, start, "").withHeldFetches(heldFetches(o.work().resolve("yarn"), appId));
    } finally {
      if (name.equals("sender-blackholed") && victim != null) {
        testbed.testbed().reconnect(victim);
      }
      if (coordinator != null) {
        coordinator.destroyForcibly();
      }
    }
  }

  /** The outcome once the run ends; hung (invalid) if it has not ended 15 minutes on. */
  private static Outcome ended(Future<JsonNode> run, long start, String note)
      throws InterruptedException {
    try {
      JsonNode r = run.get(HANG_MINUTES, TimeUnit.MINUTES);
      return new Outcome(
          r.get("valid").asBoolean(),
          (System.nanoTime() - start) / 1e9,
          r.path("recomputedMapTasks").asInt(),
          -1,
          note);
    } catch (TimeoutException e) {
      run.cancel(true);
      return new Outcome(false, (System.nanoTime() - start) / 1e9, -1, -1, "hung");
    } catch (ExecutionException e) {
      return new Outcome(
          false,
          (System.nanoTime() - start) / 1e9,
          -1,
          -1,
          Command.oneLine(String.valueOf(e.getCause().getMessage())));
    }
  }

  /**
   * How many {@link #HELD} lines the application's containers logged, in the NodeManagers' log
   * directories ({@code yarn/HOST/logs/APP}); -1 when it has none there. Only those are read: the
   * rest of a NodeManager's directory holds the application's caches, which YARN deletes as the
   * application ends, while this reads.
   */
  static int heldFetches(Path yarn, String appId) throws IOException {
    if (!Files.isDirectory(yarn)) {
      return -1;
    }
    int held = 0;
    boolean found = false;
    try (DirectoryStream<Path> hosts = Files.newDirectoryStream(yarn)) {
      for (Path host : hosts) {
        Path logs = host.resolve("logs").resolve(appId);
        if (!Files.isDirectory(logs)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(logs)) {
          for (Path f : (Iterable<Path>) files::iterator) {
            if (f.getFileName().toString().equals("stderr")) {
              found = true;
              try (Stream<String> lines = Files.lines(f)) {
                held += (int) lines.filter(l -> l.contains(HELD)).count();
              }
            }
          }
        }
      }
    }
    return found ? held : -1;
  }

  /**
   * Waits until the driver's log says a reduce stage was placed; returns the application's id, or
   * null when the run ended first.
   */
  private static String awaitPlaced(Path log, Future<JsonNode> run)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    String appId = null;
    while (System.nanoTime() < deadline && !run.isDone()) {
      if (Files.exists(log)) {
        boolean placed = false;
        for (String line : Files.readAllLines(log)) {
          Matcher m = APP_ID.matcher(line);
          if (appId == null && m.find()) {
            appId = m.group(1);
          }
          placed |= PLACED.matcher(line).find();
        }
        if (placed && appId != null) {
          return appId;
        }
      }
      Thread.sleep(200);
    }
    return null;
  }

  /** The last host that does not run the application's master. */
  static HostLink victim(List<HostLink> hosts, String amHost) {
    for (int i = hosts.size() - 1; i >= 0; i--) {
      if (!hosts.get(i).name().equals(amHost)) {
        return hosts.get(i);
      }
    }
    throw new IllegalStateException("no host without the application master");
  }

  /** A standalone coordinator in a process of its own, on loopback. */
  private static Process startCoordinator(int port, Path log)
      throws IOException, InterruptedException {
    List<String> cmd =
        List.of(
            ProcessHandle.current().info().command().orElse("java"),
            "-cp",
            System.getProperty("java.class.path"),
            CoflowCli.class.getName(),
            "coordinator",
            "--port",
            Integer.toString(port),
            "--http-port",
            "0");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    awaitPort("127.0.0.1", port);
    return p;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Waits (at most 2 minutes) until something listens on the port. */
  private static void awaitPort(String host, int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 1000);
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException("nothing listens on " + host + ":" + port + " after 2 min", e);
        }
        Thread.sleep(250);
      }
    }
  }

  private static void signal(String signal, long pid) throws IOException, InterruptedException {
    int status = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
    if (status != 0) {
      throw new IOException("kill -" + signal + " " + pid + " failed with " + status);
    }
  }

  private static void print(
      PrintStream out, Options o, Cluster cluster, Map<String, Outcome> outcomes) {
    out.printf(
        Locale.ROOT,
        "terasort %s with the plugin, %s, one fault mid-shuffle per scenario%n",
        TerasortCommand.size(o),
        cluster.description());
    out.printf(
        Locale.ROOT,
        "%-22s %-8s %9s %12s %6s  %s%n",
        "scenario",
        "output",
        "seconds",
        "recomputed",
        "held",
        "");
    outcomes.forEach(
        (name, r) ->
            out.printf(
                Locale.ROOT,
                "%-22s %-8s %9.1f %12s %6s  %s%n",
                name,
                r.valid() ? "valid" : "INVALID",
                r.seconds(),
                r.recomputedMapTasks() < 0 ? "-" : Integer.toString(r.recomputedMapTasks()),
                r.heldFetches() < 0 ? "-" : Integer.toString(r.heldFetches()),
                r.note()));
  }

  static String json(Map<String, Outcome> outcomes) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode top = json.createObjectNode();
    ObjectNode all = top.putObject("scenarios");
    outcomes.forEach(
        (name, r) ->
            all.putObject(name)
                .put("valid", r.valid())
                .put("seconds", Math.round(r.seconds() * 10) / 10.0)
                .put("recomputedMapTasks", r.recomputedMapTasks())
                .put("heldFetches", r.heldFetches()));
    try {
      return json.writeValueAsString(top);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
