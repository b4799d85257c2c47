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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.cli.spark.TerasortCommand.Jars;
import org.coflowshuffle.cli.spark.TerasortCommand.Options;
import org.coflowshuffle.cli.spark.TerasortRuns.Cluster;
import org.coflowshuffle.cli.spark.TerasortRuns.Variant;
import org.coflowshuffle.cli.testbed.HostLink;
import org.coflowshuffle.cli.testbed.Testbed;
import org.coflowshuffle.cli.testbed.TestbedCommands;
import org.coflowshuffle.cli.testbed.TestbedSpark;
import org.coflowshuffle.cli.testbed.TestbedYarn;
import org.coflowshuffle.coordinator.live.LinkHeadroom;

/**
 * {@code coflow bench terasort-yarn} ({@link #OPTIONS}; runs in the order given): on the testbed
 * (brought up for the run unless one with these links is up), starts YARN, then runs the same JOBS
 * concurrent terasorts of different sizes three times through {@code spark-submit --master yarn}:
 * stock Spark; the plugin with rates only and Spark's placement (Varys); the plugin with placement
 * and rates (RPC); on request the plugin as the RPC paper's baseline (random placement, fair
 * sharing). Validates every output and prints per run the average shuffle completion time (CCT: the
 * reduce stage, map output complete to last reducer done), the average time from the same start
 * until the last reducer had all its input (the paper's CCT, without the reducers' own sorting and
 * writing), the average job time, and each job's reduce-task hosts. With {@code --shuffle-service},
 * every run keeps its shuffle files with the NodeManagers' coflow service (Spark's protocol for the
 * stock run, the paced port for the plugin's).
 *
 * <p>The defaults stand for the RPC paper's testbed (section VI-A), as docs/results.md says: links
 * that bind (4 Mbit/s, two hosts at half: slow enough that the links, not this machine's CPU, bound
 * the shuffles), and free slots to place reducers on (six cores per executor for six reducers per
 * job: Spark may stack a stage's reducers on one host, and the placement may choose). The input is
 * stored on every host, part i on host i mod n, as HDFS spreads a file's blocks, so that Spark
 * reads each part where it is stored and every host sends its share of each shuffle.
 */
public final class TerasortYarnCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench terasort-yarn",
              "terasort on YARN on the testbed: stock, rates only, and placement with rates")
          .value("--profile", "rpc-fig4", "the testbed's links (see testbed up); needs root")
          .value("--hosts", "6", "testbed hosts, one NodeManager each")
          .value("--mbit", "4", "the fastest link, Mbit/s")
          .value("--size", "120m", "data to sort, bytes (k, m, g: powers of ten)")
          .value("--jobs", "3", "terasorts at once, of different sizes")
          .value("--cores", "6", "cores per executor")
          .value("--executors-per-host", "1", "executors on each host, sharing its link")
          .value("--reducers", "6", "reducers per job (default one per host)")
          .value("--executor-memory", "1024", "MiB per executor")
          .value(
              "--input-hosts",
              "N",
              "store the input on the first N hosts (default all; 0: on none, read on any core)")
          .value("--locality-wait", "SECONDS", "spark.locality.wait for every run (Spark's: 3)")
          .flag("--shuffle-service", "keep shuffle files with the NodeManagers' coflow service")
          .flag("--measure-links", "tell the plugin no link speed: it measures each host's link")
          .value(
              "--background",
              "HOST:MBIT",
              "a steady TCP transfer into HOST during every run (links measured below their speed)")
          .flag(
              "--not-work-conserving", "the paper's strict schedule: no idle bandwidth handed out")
          .value("--runs", "stock,rates-only,rpc,fair", "runs, in this order (default the first 3)")
          .value("--work", "DIR", "data, outputs and logs (default TMPDIR/coflow-terasort-yarn)")
          .repeatableValue("--conf", "KEY=VALUE", "a Spark setting for every run (repeatable)")
          .flag("--json", "end with one JSON line");
  private static final String PREFIX = "coflow bench terasort-yarn: ";
  static final String PLACEMENT_KEY = "spark.coflow.placement.enabled";

  /**
   * The runs {@code --runs} chooses from; the first three are the default. {@code fair} is the RPC
   * paper's baseline made real: each reducer on a random free core, every flow paced to its max-min
   * fair share.
   */
  static final List<Variant> VARIANTS =
      List.of(
          new Variant("stock", null),
          new Variant(
              "rates-only", Map.of(TerasortCommand.SCHEME_KEY, "varys", PLACEMENT_KEY, "false")),
          new Variant("rpc", Map.of(TerasortCommand.SCHEME_KEY, "rpc")),
          new Variant("fair", Map.of(TerasortCommand.SCHEME_KEY, "fair")));

  /**
   * The command line: the testbed's shape and the terasort options.
   *
   * @param localityWait {@code spark.locality.wait} for every run, e.g. {@code 10000ms}; null for
   *     Spark's own (3 s). A longer one keeps map tasks on the input's hosts and reduce tasks on
   *     their placed executors while those are busy.
   */
  record Bench(
      String profile,
      int hosts,
      int mbit,
      boolean shuffleService,
      int inputHosts,
      String localityWait,
      int executorsPerHost,
      boolean measureLinks,
      Background background,
      List<Variant> runs,
      Options terasort) {}

  /** A steady transfer into a testbed host, Mbit/s: traffic on its link that is not a shuffle's. */
  record Background(String host, int mbit) {
    static Background parse(String s) {
      int colon = s.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("--background: expected HOST:MBIT, got " + s);
      }
      try {
        int mbit = Integer.parseInt(s.substring(colon + 1));
        if (mbit <= 0) {
          throw new NumberFormatException();
        }
        return new Background(s.substring(0, colon), mbit);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--background: MBIT must be a positive integer: " + s);
      }
    }
  }

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  static Bench parse(String[] args) {
    Flags f = OPTIONS.parse(args);
    List<String> names = List.of(f.string("--runs", "stock,rates-only,rpc").split(","));
    boolean strict = f.has("--not-work-conserving");
    // In the order given: on this machine the order of runs may matter, and reversing it shows.
    List<Variant> runs = new ArrayList<>();
    for (String name : names) {
      Variant v =
          VARIANTS.stream()
              .filter(x -> x.name().equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "--runs: expected some of stock,rates-only,rpc,fair, got "
                              + String.join(",", names)));
      runs.add(strict ? v.notWorkConserving() : v);
    }
    int hosts = f.positiveInt("--hosts", 6);
    int mbit = f.positiveInt("--mbit", 4);
    int cores = f.positiveInt("--cores", 6);
    int perHost = f.positiveInt("--executors-per-host", 1);
    int inputHosts = f.nonNegativeInt("--input-hosts", hosts);
    if (inputHosts > hosts) {
      throw new IllegalArgumentException(
          "--input-hosts " + inputHosts + ": the testbed has " + hosts + " hosts");
    }
    if (cores * perHost > TestbedYarn.VCORES) {
      throw new IllegalArgumentException(
          "--cores x --executors-per-host: a testbed NodeManager offers "
              + TestbedYarn.VCORES
              + ", got "
              + cores * perHost);
    }
    Options o =
        new Options(
            TerasortCommand.bytes(f.string("--size", "120m")),
            f.positiveInt("--jobs", 3),
            hosts * perHost,
            cores,
            f.positiveInt("--reducers", hosts),
            f.positiveInt("--executor-memory", 1024),
            "rpc",
            Path.of(
                f.string(
                    "--work",
                    Path.of(System.getProperty("java.io.tmpdir"), "coflow-terasort-yarn")
                        .toString())),
            f.has("--json"),
            TerasortCommand.Where.TESTBED_UP,
            mbit,
            true,
            !strict,
            null,
            TerasortCommand.sparkConf(f.all("--conf")));
    return new Bench(
        f.string("--profile", "rpc-fig4"),
        hosts,
        mbit,
        f.has("--shuffle-service"),
        inputHosts,
        f.has("--locality-wait")
            ? Math.round(f.nonNegativeDouble("--locality-wait", 0) * 1000) + "ms"
            : null,
        perHost,
        f.has("--measure-links"),
        f.has("--background") ? Background.parse(f.string("--background", "")) : null,
        runs,
        o);
  }

  /** Where the header says the input is stored. */
  private static String inputWhere(Bench b) {
    if (b.inputHosts() == 0) {
      return ", input read on any free core";
    }
    return b.inputHosts() == b.hosts()
        ? ", input stored on every host"
        : ", input stored on the first " + b.inputHosts();
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Bench b;
    try {
      b = parse(args);
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    Options o = b.terasort();
    Path root = Path.of(System.getProperty("coflow.home", "."));
    try {
      Path spark = SparkDistribution.home(root, err);
      Jars jars = Jars.find(root);
      String hadoop = TestbedYarn.hadoopClassPath(root);
      Files.createDirectories(o.work().resolve("logs"));
      try (TestbedCommands.Session testbed =
              TestbedCommands.session(b.profile(), b.hosts(), b.mbit(), err);
          TestbedYarn yarn = startYarn(hadoop, jars, testbed, b, err)) {
        Map<String, String> conf =
            new LinkedHashMap<>(
                yarn.sparkConf(spark, o.executors(), o.cores(), o.executorMemoryMb()));
        if (b.shuffleService()) {
          conf.putAll(TestbedYarn.serviceConf());
        }
        if (b.localityWait() != null) {
          conf.put("spark.locality.wait", b.localityWait());
        }
        conf.putAll(o.sparkConf());
        Cluster cluster =
            new Cluster(
                "yarn",
                "YARN on the testbed ("
                    + b.profile()
                    + "), "
                    + b.hosts()
                    + " hosts x "
                    + (b.executorsPerHost() > 1 ? b.executorsPerHost() + " executors x " : "")
                    + o.cores()
                    + " core(s)"
                    + (b.shuffleService() ? ", shuffle files kept by the NodeManagers" : "")
                    + inputWhere(b)
                    + (b.localityWait() != null ? ", locality wait " + b.localityWait() : "")
                    + (b.measureLinks() ? ", links measured by the plugin" : "")
                    + (b.background() != null
                        ? ", "
                            + b.background().mbit()
                            + " Mbit/s of other traffic into "
                            + b.background().host()
                        : ""),
                conf,
                Map.of("HADOOP_CONF_DIR", yarn.confDir().toString()),
                linkConf(b, testbed.hosts()));
        List<String> inputHosts =
            testbed.hosts().stream().limit(b.inputHosts()).map(h -> h.name()).toList();
        TerasortRuns runs = new TerasortRuns(spark, jars, o, cluster, inputHosts, err);
        Path gen = runs.generate();
        HostLink busy = null;
        if (b.background() != null) {
          busy =
              testbed.hosts().stream()
                  .filter(h -> h.name().equals(b.background().host()))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalStateException(
                              "--background: no testbed host " + b.background().host()));
        }
        Map<String, JsonNode> results = new LinkedHashMap<>();
        Map<String, double[]> links = modelLinks(testbed.hosts(), b.background());
        for (Variant v : b.runs()) {
          try (Testbed.Transfer other =
              busy == null
                  ? null
                  : testbed.testbed().background(busy, b.background().mbit(), 24 * 3600)) {
            ObjectNode r = (ObjectNode) runs.sort(v, gen);
            if (v.plugin()) {
              model(r, v, links, err);
            }
            results.put(v.name(), r);
          }
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode summary = summary(json, results);
        print(out, o, cluster, results, summary, testbed.hosts());
        if (o.json()) {
          out.println(json.writeValueAsString(summary));
        }
        return summary.get("valid").asBoolean() ? 0 : FAILURE;
      }
    } catch (IOException | IllegalStateException | InterruptedException e) {
      return TerasortRuns.fail(PREFIX, e, err);
    }
  }

  /**
   * What the plugin is told of the links: nothing with {@code --measure-links}, else each host's
   * speed; measured below it under {@code --background}, where other traffic takes part of a link.
   */
  private static Map<String, String> linkConf(Bench b, List<HostLink> hosts) {
    if (b.measureLinks()) {
      return Map.of("spark.coflow.links.measured", "true");
    }
    Map<String, String> conf = new LinkedHashMap<>(TestbedSpark.linkConf(hosts));
    if (b.background() != null) {
      conf.put("spark.coflow.links.measured", "true");
    }
    return conf;
  }

  /**
   * The links the flow model of a run takes: each host's as TCP payload gets it while the link is
   * loaded both ways, as a shuffle loads every host's ({@link LinkHeadroom#BOTH_WAYS}), less the
   * background's rate on the link it loads.
   */
  static Map<String, double[]> modelLinks(List<HostLink> hosts, Background background) {
    Map<String, double[]> links = new LinkedHashMap<>();
    for (HostLink h : hosts) {
      double[] io = TestbedSpark.goodput(h);
      io[0] *= LinkHeadroom.BOTH_WAYS;
      io[1] *= LinkHeadroom.BOTH_WAYS;
      if (background != null && h.name().equals(background.host())) {
        io[0] = Math.max(0, io[0] * (1 - (double) background.mbit() / h.inMbit()));
      }
      links.put(h.name(), io);
    }
    return links;
  }

  /**
   * Adds to a plugin run's result {@code modelCct}, the average CCT of the flow model of its own
   * layout under its scheme ({@link LayoutModel}), and to each of its reduce stages {@code
   * modelSeconds}, that stage's CCT in the model; without them, says why in one line.
   */
  private static void model(ObjectNode r, Variant v, Map<String, double[]> links, PrintStream err) {
    try {
      double[] ccts =
          LayoutModel.ccts(
              r,
              links,
              v.pluginConf().get(TerasortCommand.SCHEME_KEY),
              !"false".equals(v.pluginConf().get(TerasortCommand.WORK_CONSERVING_KEY)));
      int k = 0;
      for (JsonNode job : r.path("jobs")) {
        for (JsonNode stage : job.path("shuffles")) {
          ((ObjectNode) stage).put("modelSeconds", ccts[k++]);
        }
      }
      r.put("modelCct", Arrays.stream(ccts).average().orElse(0));
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + v.name() + ": no flow model of its layout: " + e.getMessage());
    }
  }

  /** Seconds to two places, or "-" for NaN (not measured, or no model). */
  private static String seconds(double s) {
    return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s);
  }

  /**
   * A job's CCT in the flow model: the mean of its reduce stages' ({@code modelSeconds}), or NaN.
   */
  static double modelSeconds(JsonNode job) {
    double sum = 0;
    int n = 0;
    for (JsonNode stage : job.path("shuffles")) {
      if (stage.has("modelSeconds")) {
        sum += stage.get("modelSeconds").asDouble();
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  private static TestbedYarn startYarn(
      String hadoop, Jars jars, TestbedCommands.Session testbed, Bench b, PrintStream err)
      throws IOException, InterruptedException {
    Options o = b.terasort();
    err.printf(
        Locale.ROOT,
        "coflow: starting YARN (a ResourceManager, %d NodeManagers)%n",
        testbed.hosts().size());
    return TestbedYarn.start(
        hadoop,
        TestbedCommands.gateway(),
        testbed.hosts(),
        new TestbedYarn.Nodes(
            o.executorMemoryMb(),
            TestbedYarn.coflowService(jars.service(), o.sparkConf()),
            false,
            b.executorsPerHost()),
        o.work().resolve("yarn"));
  }

  /** The JSON summary: per run its averages and validity, overall validity, placement match. */
  static ObjectNode summary(ObjectMapper json, Map<String, JsonNode> results) {
    ObjectNode s = json.createObjectNode();
    boolean valid = true;
    for (JsonNode r : results.values()) {
      valid &= r.get("valid").asBoolean();
    }
    s.put("valid", valid);
    for (Map.Entry<String, JsonNode> e : results.entrySet()) {
      ObjectNode n = s.putObject(e.getKey());
      JsonNode r = e.getValue();
      n.put("averageCct", TerasortRuns.mean(r, "shuffleSeconds"));
      n.put("averageFetchCct", TerasortRuns.mean(r, "fetchSeconds"));
      boolean networkKnown = true; // when every job's bytes over the network were in
      for (JsonNode j : r.get("jobs")) {
        networkKnown &= j.has("networkFetchSeconds");
      }
      if (networkKnown) {
        n.put("averageNetworkFetchCct", TerasortRuns.mean(r, "networkFetchSeconds"));
        var network = n.putArray("networkFetchCcts");
        r.get("jobs").forEach(j -> network.add(j.get("networkFetchSeconds").asDouble()));
      }
      n.put("averageJobTime", TerasortRuns.mean(r, "jobSeconds"));
      n.put("valid", r.get("valid").asBoolean());
      if (r.has("pacedBytes")) {
        n.put("pacedBytes", r.get("pacedBytes").asLong());
        n.put("earlyBytes", r.path("earlyBytes").asLong(0));
        n.put("peakLinkUse", r.get("peakLinkUse").asDouble());
        n.set("hostBandwidth", r.get("hostBandwidth"));
        n.set("linkBandwidth", r.get("linkBandwidth"));
      }
      if (r.has("modelCct")) {
        double model = r.get("modelCct").asDouble();
        n.put("modelCct", model);
        var perJob = n.putArray("modelCcts");
        r.get("jobs").forEach(j -> perJob.add(modelSeconds(j)));
        if (networkKnown) { // the model moves bytes only: until the last byte against it
          n.put("liveOverModel", n.get("averageNetworkFetchCct").asDouble() / model);
        }
      }
      var hosts = n.putArray("reduceHosts");
      r.get("jobs").forEach(j -> hosts.add(j.get("reduceHosts")));
    }
    s.put(
        "placementMatch",
        TerasortRuns.placementMatch(results.getOrDefault("rpc", json.createObjectNode())));
    return s;
  }

  private static void print(
      PrintStream out,
      Options o,
      Cluster cluster,
      Map<String, JsonNode> results,
      ObjectNode summary,
      List<HostLink> hosts) {
    out.printf(
        Locale.ROOT,
        "terasort %s, %d jobs at once of 1/%d to all of the data, %s, %d reducers per job%n",
        TerasortCommand.size(o),
        o.jobs(),
        o.jobs(),
        cluster.description(),
        o.reducers());
    out.printf(
        Locale.ROOT,
        "%-11s %8s %8s %8s %8s %8s  %s%n",
        "run",
        "CCT s",
        "fetch s",
        "net s",
        "model s",
        "job s",
        "reduce-task hosts");
    for (Map.Entry<String, JsonNode> e : results.entrySet()) {
      JsonNode jobs = e.getValue().get("jobs");
      for (int j = 0; j < jobs.size(); j++) {
        JsonNode job = jobs.get(j);
        out.printf(
            Locale.ROOT,
            "%-11s %8.2f %8.2f %8s %8s %8.2f  %s%n",
            j == 0 ? e.getKey() : "",
            job.get("shuffleSeconds").asDouble(),
            job.get("fetchSeconds").asDouble(),
            seconds(job.path("networkFetchSeconds").asDouble(Double.NaN)),
            seconds(modelSeconds(job)),
            job.get("jobSeconds").asDouble(),
            "job " + j + ": " + job.get("reduceHosts"));
      }
    }
    double stock = summary.path("stock").path("averageCct").asDouble(Double.NaN);
    double stockFetch = summary.path("stock").path("averageFetchCct").asDouble(Double.NaN);
    for (String name : results.keySet()) {
      JsonNode n = summary.get(name);
      double cct = n.get("averageCct").asDouble();
      double fetch = n.get("averageFetchCct").asDouble();
      out.printf(
          Locale.ROOT,
          "%-11s average CCT %7.2f s (%suntil read and sorted %.2f s%s), average job %7.2f s,"
              + " output %s%s%n",
          name,
          cct,
          Double.isNaN(stock)
              ? ""
              : String.format(Locale.ROOT, "%+.1f%% vs stock; ", 100 * (cct / stock - 1)),
          fetch,
          Double.isNaN(stockFetch)
              ? ""
              : String.format(Locale.ROOT, ", %+.1f%%", 100 * (fetch / stockFetch - 1)),
          n.get("averageJobTime").asDouble(),
          n.get("valid").asBoolean() ? "valid" : "INVALID",
          n.has("pacedBytes")
              ? String.format(
                  Locale.ROOT,
                  ", fetched paced %.1f MB (%.1f MB ahead of their tasks), planned rates at"
                      + " most %.1f%% of a link",
                  n.get("pacedBytes").asLong() / 1e6,
                  n.get("earlyBytes").asLong() / 1e6,
                  100 * n.get("peakLinkUse").asDouble())
              : "");
      if (n.has("liveOverModel")) {
        out.printf(
            Locale.ROOT,
            "%-11s bytes over the network in after %.2f s, flow model of this run's layout %.2f s:"
                + " live / model %.3f%n",
            "",
            n.get("averageNetworkFetchCct").asDouble(),
            n.get("modelCct").asDouble(),
            n.get("liveOverModel").asDouble());
      }
    }
    out.printf(
        Locale.ROOT,
        "rpc reduce tasks where the coordinator placed them: %.1f%%%n",
        100 * summary.get("placementMatch").asDouble());
    for (String name : results.keySet()) {
      JsonNode run = summary.get(name);
      if (run.path("hostBandwidth").size() > 0) {
        out.printf(
            Locale.ROOT,
            "%-11s link estimates (MB/s in/out): %s%n",
            name,
            perHost(run.path("linkBandwidth")));
        out.printf(
            Locale.ROOT,
            "%-11s left for shuffles (MB/s in/out): %s%n",
            "",
            perHost(run.path("hostBandwidth")));
      }
    }
    if (summary.properties().stream()
        .anyMatch(e -> e.getValue().path("hostBandwidth").size() > 0)) {
      StringBuilder line = new StringBuilder();
      for (HostLink h : hosts) {
        line.append(line.length() == 0 ? "" : ", ")
            .append(
                String.format(
                    Locale.ROOT,
                    "%s (%s) %.2f/%.2f",
                    h.name(),
                    h.address(),
                    h.inMbit() / 8.0,
                    h.outMbit() / 8.0));
      }
      out.printf(Locale.ROOT, "%-11s tc allows (MB/s in/out): %s%n", "", line);
    }
  }

  /** E.g. {@code h1 1.19/1.19, h2 1.18/1.19}: a JSON object of [in, out] per host. */
  private static String perHost(JsonNode links) {
    StringBuilder line = new StringBuilder();
    links
        .fields()
        .forEachRemaining(
            e ->
                line.append(line.length() == 0 ? "" : ", ")
                    .append(
                        String.format(
                            Locale.ROOT,
                            "%s %.2f/%.2f",
                            e.getKey(),
                            e.getValue().get(0).asDouble(),
                            e.getValue().get(1).asDouble())));
    return line.toString();
  }
}
