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
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.cli.spark.TerasortRuns.Cluster;
import org.coflowshuffle.cli.spark.TerasortRuns.Variant;
import org.coflowshuffle.cli.testbed.HostLink;
import org.coflowshuffle.cli.testbed.TestbedCommands;
import org.coflowshuffle.cli.testbed.TestbedSpark;

/**
 * {@code coflow terasort} ({@link #OPTIONS}): generates TeraGen data once, then sorts it with JOBS
 * concurrent jobs twice on the stock Spark distribution: once stock, once with the plugin ({@code
 * --runs} makes one of them only). Validates the outputs and prints per job the reduce stage's time
 * (the shuffle, from its map output being complete to its last reducer done), the job's time, and
 * how many reduce tasks ran where the coordinator placed them. With {@code --coordinator} the
 * plugin run uses that standalone coordinator instead of its own.
 *
 * <p>Where it sorts: by default on a testbed of its own, made for the run and taken down after it
 * (six hosts whose links are shaped as the RPC paper's testbed, {@code rpc-fig4}: what the plugin
 * is for is links that bind), as {@code bench terasort-yarn} does by default but under Spark's own
 * standalone cluster manager; where no testbed can be made (not root), on an embedded {@code
 * local-cluster} (executors in their own JVMs, on loopback: nothing binds, so no gain), with one
 * line saying why. {@code --local} chooses the local cluster, {@code --testbed} a testbed already
 * up.
 */
public final class TerasortCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "terasort",
              "sort TeraGen data on shaped links (or a local cluster), stock and with the plugin")
          .value("--size", "120m", "data to sort, bytes (k, m, g, t: powers of ten; local: 1g)")
          .value("--jobs", "3", "terasorts at once, each its own job")
          .value("--mbit", "4", "the testbed's fastest link, Mbit/s (hosts 5 and 6 at half)")
          .value("--executors", "4", "with --local: executors of the local cluster, own JVMs")
          .value("--cores", "6", "cores per executor (local and --testbed: 1)")
          .value("--reducers", "N", "reducers per job (default one per host; local: per core)")
          .value("--executor-memory", "1024", "MiB per executor")
          .value("--scheme", "rpc", "the plugin's scheme")
          .value("--coordinator", "HOST:PORT", "a standalone coordinator instead of the embedded")
          .flag(
              "--not-work-conserving", "the paper's strict schedule: no idle bandwidth handed out")
          .flag("--local", "on an embedded local-cluster (one machine, loopback) instead")
          .flag("--testbed", "on the testbed that is up (coflow testbed up) instead")
          .flag(
              "--mixed",
              "jobs of different sizes, job j sorting (j+1)/JOBS of the data (on its own testbed:"
                  + " always)")
          .value("--work", "DIR", "data, outputs and logs (default TMPDIR/coflow-terasort)")
          .repeatableValue(
              "--conf", "KEY=VALUE", "a Spark setting for both runs, stock and plugin (repeatable)")
          .value("--event-log", "DIR", "Spark's event logs of both runs there (see coflow history)")
          .value("--runs", "stock,plugin", "sorts, in this order (one alone: nothing to compare)")
          .flag("--json", "end with one JSON line");
  private static final String PREFIX = "coflow terasort: ";

  // Names, not class literals: this command runs without Spark on its class path, and loading the
  // plugin's classes would need Spark's. TerasortCommandTest checks they name the real classes.
  static final String APP_CLASS = "org.coflowshuffle.cli.spark.app.TerasortApp";
  static final String SHUFFLE_MANAGER = "org.coflowshuffle.spark.CoflowShuffleManager";
  static final String PLUGIN = "org.coflowshuffle.spark.CoflowPlugin";
  static final String SCHEME_KEY = "spark.coflow.scheme";
  static final String WORK_CONSERVING_KEY = "spark.coflow.workConserving";
  static final String COORDINATOR_KEY = "spark.coflow.coordinator";

  /** Hosts of the testbed the command makes: the RPC paper's six ({@code rpc-fig4}). */
  static final int TESTBED_HOSTS = 6;

  static final String TESTBED_PROFILE = "rpc-fig4";

  private static final String STOCK = "stock";
  private static final String PLUGIN_RUN = "plugin";

  /** Where the sorts run. */
  enum Where {
    /** A testbed the command makes for the run, the default where it can be made. */
    OWN_TESTBED,
    /** The testbed that is up ({@code --testbed}). */
    TESTBED_UP,
    /** An embedded {@code local-cluster} ({@code --local}). */
    LOCAL
  }

  /** The parsed command line. */
  record Options(
      long bytes,
      int jobs,
      int executors,
      int cores,
      int reducers,
      int executorMemoryMb,
      String scheme,
      Path work,
      boolean json,
      Where where,
      int mbit,
      boolean mixed,
      boolean workConserving,
      String coordinator,
      Map<String, String> sparkConf) {

    long rows() {
      return Math.max(1, bytes / 100);
    }

    /** Reducers per job: as given, or one per core of the cluster (0 means not given). */
    @Override
    public int reducers() {
      return reducers > 0 ? reducers : executors * cores;
    }

    Options withExecutors(int n) {
      return new Options(
          bytes,
          jobs,
          n,
          cores,
          reducers,
          executorMemoryMb,
          scheme,
          work,
          json,
          where,
          mbit,
          mixed,
          workConserving,
          coordinator,
          sparkConf);
    }

    String master() {
      return "local-cluster[" + executors + "," + cores + "," + executorMemoryMb + "]";
    }
  }

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Options o;
    List<String> sorts;
    try {
      o = parse(args);
      sorts = runs(args);
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    TestbedSpark testbed = null;
    TestbedCommands.Session own = null;
    try {
      if (o.where() == Where.OWN_TESTBED) {
        try {
          own = ownTestbed(o, err);
        } catch (IOException | IllegalStateException e) {
          err.println(
              "coflow: sorting on an embedded local-cluster, not on shaped links (no link binds"
                  + " there: expect no gain): "
                  + e.getMessage());
          o = parse(args, Where.LOCAL);
        }
      }
      Path root = Path.of(System.getProperty("coflow.home", "."));
      Path spark = SparkDistribution.home(root, err);
      Jars jars = Jars.find(root);
      Files.createDirectories(o.work().resolve("logs"));
      String eventLog = o.sparkConf().get("spark.eventLog.dir");
      if (eventLog != null && eventLog.startsWith("file:")) {
        Files.createDirectories(Path.of(URI.create(eventLog)));
      }
      Cluster cluster = new Cluster(o.master(), o.master(), o.sparkConf(), Map.of(), Map.of());
      if (o.where() != Where.LOCAL) {
        List<HostLink> hosts = own != null ? own.hosts() : TestbedCommands.hostsUp();
        err.printf(Locale.ROOT, "coflow: starting Spark on the testbed's %d hosts%n", hosts.size());
        testbed =
            TestbedSpark.start(
                spark,
                TestbedCommands.gateway(),
                hosts,
                o.cores(),
                o.executorMemoryMb() + 256,
                o.work().resolve("logs/testbed"));
        Map<String, String> conf = new LinkedHashMap<>(testbed.driverConf());
        conf.put("spark.executor.memory", o.executorMemoryMb() + "m");
        conf.putAll(o.sparkConf());
        cluster =
            new Cluster(
                testbed.masterUrl(),
                (own != null
                        ? "a testbed of its own ("
                            + TESTBED_PROFILE
                            + ", "
                            + o.mbit()
                            + " Mbit/s, hosts 5-6 at half), "
                        : "testbed, ")
                    + hosts.size()
                    + " hosts x "
                    + o.cores()
                    + " core(s)",
                conf,
                Map.of(),
                TestbedSpark.linkConf(hosts));
        o = o.withExecutors(hosts.size());
      }
      ObjectMapper json = new ObjectMapper();
      TerasortRuns runs = new TerasortRuns(spark, jars, o, cluster, List.of(), err);
      Path gen = runs.generate();
      Map<String, String> pluginConf = new LinkedHashMap<>();
      pluginConf.put(SCHEME_KEY, o.scheme());
      pluginConf.put(WORK_CONSERVING_KEY, Boolean.toString(o.workConserving()));
      if (o.coordinator() != null) {
        pluginConf.put(COORDINATOR_KEY, o.coordinator());
      }
      JsonNode stock = null;
      JsonNode plugin = null;
      for (String run : sorts) {
        if (run.equals(STOCK)) {
          stock = runs.sort(new Variant(STOCK, null), gen);
        } else {
          plugin = runs.sort(new Variant(PLUGIN_RUN, Map.copyOf(pluginConf)), gen);
        }
      }
      ObjectNode summary = summary(json, stock, plugin);
      print(out, o, cluster, stock, plugin, summary);
      if (eventLog != null) {
        err.println("coflow: event logs in " + eventLog + " (bin/coflow history --event-log DIR)");
      }
      if (o.json()) {
        out.println(json.writeValueAsString(summary));
      }
      return summary.get("valid").asBoolean() ? 0 : FAILURE;
    } catch (IOException | IllegalStateException | InterruptedException e) {
      return TerasortRuns.fail(PREFIX, e, err);
    } finally {
      if (testbed != null) {
        testbed.close();
      }
      closeQuietly(own, err);
    }
  }

  /**
   * Makes the testbed of {@link Where#OWN_TESTBED} (or takes the one up with the same links).
   *
   * @throws IOException when it cannot be made here, saying why
   * @throws IllegalStateException when a testbed with other links is up
   */
  private static TestbedCommands.Session ownTestbed(Options o, PrintStream err)
      throws IOException, InterruptedException {
    if (!"root".equals(System.getProperty("user.name"))) {
      throw new IOException("the testbed's network namespaces need root");
    }
    err.printf(
        Locale.ROOT,
        "coflow: making a testbed of %d hosts with shaped links (%s: %d Mbit/s, hosts 5-6 at"
            + " half); --local sorts on one machine instead%n",
        TESTBED_HOSTS,
        TESTBED_PROFILE,
        o.mbit());
    return TestbedCommands.session(TESTBED_PROFILE, TESTBED_HOSTS, o.mbit(), err);
  }

  private static void closeQuietly(TestbedCommands.Session session, PrintStream err) {
    if (session == null) {
      return;
    }
    try {
      session.close();
    } catch (IOException e) {
      err.println(
          "coflow: the testbed was not taken down (coflow testbed down): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static Options parse(String[] args) {
    return parse(args, null);
  }

  /**
   * The command line, sorting where {@code where} says, or where the flags say (null): a testbed of
   * its own unless {@code --local} or {@code --testbed}. The defaults of size, cores and reducers
   * are those of where it sorts.
   */
  static Options parse(String[] args, Where where) {
    Flags f = OPTIONS.parse(args);
    if (f.has("--local") && f.has("--testbed")) {
      throw new IllegalArgumentException("--local or --testbed, not both");
    }
    if (where == null) {
      where = f.has("--local") ? Where.LOCAL : f.has("--testbed") ? Where.TESTBED_UP : null;
    }
    if (where == null) {
      if (f.has("--executors")) {
        throw new IllegalArgumentException(
            "--executors sizes the local cluster: add --local (the testbed runs one per host)");
      }
      where = Where.OWN_TESTBED;
    }
    boolean own = where == Where.OWN_TESTBED;
    long bytes = bytes(f.string("--size", own ? "120m" : "1g"));
    int executors = own ? TESTBED_HOSTS : f.positiveInt("--executors", 4);
    int cores = f.positiveInt("--cores", own ? 6 : 1);
    String scheme = f.string("--scheme", "rpc");
    org.coflowshuffle.core.scheme.Schemes.require(scheme);
    Path work =
        Path.of(
            f.string(
                "--work",
                Path.of(System.getProperty("java.io.tmpdir"), "coflow-terasort").toString()));
    return new Options(
        bytes,
        f.positiveInt("--jobs", 3),
        executors,
        cores,
        f.has("--reducers") ? f.positiveInt("--reducers", 1) : own ? TESTBED_HOSTS : 0,
        f.positiveInt("--executor-memory", 1024),
        scheme,
        work,
        f.has("--json"),
        where,
        f.positiveInt("--mbit", 4),
        own || f.has("--mixed"),
        !f.has("--not-work-conserving"),
        coordinator(f.string("--coordinator", null)),
        withEventLog(sparkConf(f.all("--conf")), f.string("--event-log", null)));
  }

  /** {@code --runs}: stock, plugin or both, each once, in the order given. */
  static List<String> runs(String[] args) {
    String value = OPTIONS.parse(args).string("--runs", STOCK + "," + PLUGIN_RUN);
    List<String> runs = List.of(value.split(",", -1));
    if (runs.stream().distinct().count() != runs.size()
        || !List.of(STOCK, PLUGIN_RUN).containsAll(runs)) {
      throw new IllegalArgumentException(
          "--runs: expected stock, plugin or both, each once, got \"" + value + "\"");
    }
    return runs;
  }

  /** {@code conf} with Spark's event log on, in {@code dir}; as it was for a null {@code dir}. */
  static Map<String, String> withEventLog(Map<String, String> conf, String dir) {
    if (dir == null) {
      return conf;
    }
    Map<String, String> with = new LinkedHashMap<>(conf);
    with.put("spark.eventLog.enabled", "true");
    with.put("spark.eventLog.dir", Path.of(dir).toAbsolutePath().normalize().toUri().toString());
    return Map.copyOf(with);
  }

  /** {@code --conf KEY=VALUE} settings, in order, the last of a key counting. */
  static Map<String, String> sparkConf(List<String> settings) {
    Map<String, String> conf = new LinkedHashMap<>();
    for (String s : settings) {
      int eq = s.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--conf: expected KEY=VALUE, got \"" + s + "\"");
      }
      conf.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
    }
    return Map.copyOf(conf);
  }

  /** A standalone coordinator's {@code host:port}, checked; null for the embedded one. */
  private static String coordinator(String value) {
    if (value != null && !value.matches("[^:\\s]+:[0-9]{1,5}")) {
      throw new IllegalArgumentException(
          "--coordinator: expected host:port, got \"" + value + "\"");
    }
    return value;
  }

  /** Bytes from {@code 1g}, {@code 200m}, {@code 500k} or a plain count (powers of ten). */
  static long bytes(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'k' -> unit = 1_000L;
        case 'm' -> unit = 1_000_000L;
        case 'g' -> unit = 1_000_000_000L;
        case 't' -> unit = 1_000_000_000_000L;
        default -> unit = 1;
      }
    }
    String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
    try {
      double v = Double.parseDouble(digits);
      if (!(v >= 100) && v * unit < 100) {
        throw new NumberFormatException();
      }
      return (long) (v * unit);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--size: expected a size of at least 100 bytes like 1g or 200m, got \"" + text + "\"");
    }
  }

  static String size(Options o) {
    return String.format(Locale.ROOT, "%.3g GB", o.rows() * 100 / 1e9);
  }

  /** The JARs as built: the plugin's, the terasort application's, and the NodeManager service's. */
  public record Jars(Path plugin, Path app, Path service) {
    public static Jars find(Path root) throws IOException {
      Path app = jar(root.resolve("cli/target"), "coflow-cli-", "");
      Path plugin = jar(root.resolve("spark-shuffle/target"), "coflow-shuffle-spark_2.13-", "");
      Path service = jar(root.resolve("yarn-scheduler/target"), "coflow-shuffle-yarn_2.13-", "");
      return new Jars(plugin, app, service);
    }

    private static Path jar(Path dir, String prefix, String suffix) throws IOException {
      if (Files.isDirectory(dir)) {
        try (DirectoryStream<Path> s =
            Files.newDirectoryStream(dir, prefix + "*" + suffix + ".jar")) {
          for (Path p : s) {
            String name = p.getFileName().toString();
            if (suffix.isEmpty() && name.matches(".*-(sources|tests|javadoc)\\.jar")) {
              continue;
            }
            return p;
          }
        }
      }
      throw new IOException(
          "no " + prefix + "*" + suffix + ".jar in " + dir + "; build with mvn package");
    }
  }

  /**
   * The JSON summary: the runs made (null: not made), their means, validity and, with the plugin's
   * run, the placement match.
   */
  static ObjectNode summary(ObjectMapper json, JsonNode stock, JsonNode plugin) {
    ObjectNode s = json.createObjectNode();
    s.put(
        "valid",
        (stock == null || stock.get("valid").asBoolean())
            && (plugin == null || plugin.get("valid").asBoolean()));
    if (stock != null) {
      s.set(STOCK, run(json, stock));
    }
    if (plugin != null) {
      s.set(PLUGIN_RUN, run(json, plugin));
      s.put("placementMatch", TerasortRuns.placementMatch(plugin));
      s.put("pacedBytes", plugin.path("pacedBytes").asLong(0));
    }
    return s;
  }

  private static ObjectNode run(ObjectMapper json, JsonNode r) {
    ObjectNode n = json.createObjectNode();
    n.put("valid", r.get("valid").asBoolean());
    n.put("meanShuffleSeconds", TerasortRuns.mean(r, "shuffleSeconds"));
    n.put("meanJobSeconds", TerasortRuns.mean(r, "jobSeconds"));
    n.put("allJobsSeconds", r.get("allJobsSeconds").asDouble());
    n.set("jobs", r.get("jobs"));
    return n;
  }

  private static void print(
      PrintStream out, Options o, Cluster cluster, JsonNode stock, JsonNode plugin, ObjectNode s) {
    out.printf(
        Locale.ROOT,
        "terasort %s, %d job(s) at once%s, %s, %d reducers per job, scheme %s%n",
        size(o),
        o.jobs(),
        o.mixed() ? " of 1/" + o.jobs() + " to all of the data" : "",
        cluster.description(),
        o.reducers(),
        o.scheme());
    if (stock == null || plugin == null) {
      printOne(out, o, stock != null ? stock : plugin, plugin != null, s);
      return;
    }
    out.printf(
        Locale.ROOT,
        "%-5s %-26s %-26s %s%n",
        "job",
        "shuffle s: stock  plugin",
        "job s: stock  plugin",
        "placed as chosen");
    for (int j = 0; j < o.jobs(); j++) {
      JsonNode a = stock.get("jobs").get(j);
      JsonNode b = plugin.get("jobs").get(j);
      out.printf(
          Locale.ROOT,
          "%-5d %12.2f %7.2f      %12.2f %7.2f      %d/%d%n",
          j,
          a.get("shuffleSeconds").asDouble(),
          b.get("shuffleSeconds").asDouble(),
          a.get("jobSeconds").asDouble(),
          b.get("jobSeconds").asDouble(),
          b.get("placedTasksMatched").asInt(),
          b.get("reduceTasks").asInt());
    }
    JsonNode sa = s.get("stock");
    JsonNode sb = s.get("plugin");
    out.printf(
        Locale.ROOT,
        "%-5s %12.2f %7.2f      %12.2f %7.2f%n",
        "mean",
        sa.get("meanShuffleSeconds").asDouble(),
        sb.get("meanShuffleSeconds").asDouble(),
        sa.get("meanJobSeconds").asDouble(),
        sb.get("meanJobSeconds").asDouble());
    out.printf(
        Locale.ROOT,
        "plugin/stock: shuffle %.2f, job %.2f; output valid: stock %s, plugin %s;"
            + " placement match %.1f%%; fetched paced %.1f MB%n",
        sb.get("meanShuffleSeconds").asDouble() / sa.get("meanShuffleSeconds").asDouble(),
        sb.get("meanJobSeconds").asDouble() / sa.get("meanJobSeconds").asDouble(),
        sa.get("valid").asBoolean() ? "yes" : "NO",
        sb.get("valid").asBoolean() ? "yes" : "NO",
        100 * s.get("placementMatch").asDouble(),
        s.get("pacedBytes").asLong() / 1e6);
  }

  /**
   * The table of a single run, the plugin's ({@code placed}: with where its reducers ran) or stock.
   */
  private static void printOne(
      PrintStream out, Options o, JsonNode r, boolean placed, ObjectNode s) {
    out.printf(
        Locale.ROOT,
        "%-5s %10s %10s%s%n",
        "job",
        "shuffle s",
        "job s",
        placed ? "  placed as chosen" : "");
    for (int j = 0; j < o.jobs(); j++) {
      JsonNode job = r.get("jobs").get(j);
      out.printf(
          Locale.ROOT,
          "%-5d %10.2f %10.2f%s%n",
          j,
          job.get("shuffleSeconds").asDouble(),
          job.get("jobSeconds").asDouble(),
          placed
              ? "  " + job.get("placedTasksMatched").asInt() + "/" + job.get("reduceTasks").asInt()
              : "");
    }
    JsonNode m = s.get(placed ? PLUGIN_RUN : STOCK);
    out.printf(
        Locale.ROOT,
        "%-5s %10.2f %10.2f%n",
        "mean",
        m.get("meanShuffleSeconds").asDouble(),
        m.get("meanJobSeconds").asDouble());
    out.printf(
        Locale.ROOT,
        "%s only; output valid: %s%s%n",
        placed ? PLUGIN_RUN : STOCK,
        m.get("valid").asBoolean() ? "yes" : "NO",
        placed
            ? String.format(
                Locale.ROOT,
                "; placement match %.1f%%; fetched paced %.1f MB",
                100 * s.get("placementMatch").asDouble(),
                s.get("pacedBytes").asLong() / 1e6)
            : "");
  }
}
