/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.Charts;
import org.coflowshuffle.simulator.IsolatedLowerBound;
import org.coflowshuffle.simulator.PooledSrptBound;
import org.coflowshuffle.simulator.SchemeReport;
import org.coflowshuffle.simulator.Simulation;
import org.coflowshuffle.simulator.Summary;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.workload.FabricWorkload;
import org.coflowshuffle.simulator.workload.FbReplay;
import org.coflowshuffle.simulator.workload.RpcSynthetic;

/**
 * {@code coflow simulate}: replays a workload under several schemes side by side through the exact
 * runner and prints, per scheme, the CCT statistics, how close they are to the coflows' isolated
 * lower bounds, decision times and, against a reference scheme, the share of coflows slower and the
 * median and 90th percentile of per-coflow speedups.
 */
public final class SimulateCommand implements Command {

  /**
   * Default of {@code --resolution}: a flow ending wakes the policy within 1% of the oldest active
   * coflow's age (arrivals and coflow completions always wake it at once).
   */
  static final double DEFAULT_RESOLUTION = 0.01;

  private static final List<String> WORKLOADS = List.of("fb", "rpc-synthetic", "fabric");

  /** Schemes compared on fb and rpc-synthetic unless {@code --schemes} says otherwise. */
  private static final String DEFAULT_SCHEMES = "rpc,neat,varys,fair";

  /** Coflows of the fabric workload: Rapier's Fig. 4 sends 20 per round. */
  private static final int FABRIC_COFLOWS = 20;

  /** Arrivals per second of the fabric workload. */
  private static final double FABRIC_RATE = 5;

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "simulate", "replay a workload under several schemes and compare their CCTs")
          .requiredValue(
              "--workload",
              "fb|rpc-synthetic|fabric",
              "the Facebook trace, the RPC paper's synthetic workload, or Rapier's fabric")
          .value(
              "--schemes", DEFAULT_SCHEMES, "schemes side by side (fabric: those choosing paths)")
          .value("--hosts", "N[,N...]", "reducer hosts, and as many senders (default 100)")
          .value("--rate", "L[,L...]", "coflow arrivals per second (default 20; fabric 5)")
          .flag("--all-at-once", "every coflow arrives at time 0")
          .value("--coflows", "C[,C...]", "coflows per trial (default 1000; fb the whole trace)")
          .value("--trials", "T", "trials, each drawn afresh (default 1)")
          .value("--seed", "S", "seed of the first trial (default 1)")
          .value("--delta", "S|none", "starvation threshold in seconds (default none)")
          .value(
              "--resolution",
              "R",
              "a flow end wakes the scheme within R of the oldest coflow's age (default "
                  + DEFAULT_RESOLUTION
                  + "; 0 is exact)")
          .flag("--work-conserving", "hand bandwidth the schedule leaves idle to waiting coflows")
          .value("--reference", "SCHEME", "the scheme speedups are measured against (default neat)")
          .value(
              "--mapper-gbps",
              "G|drawn",
              "senders' links (default " + RpcSynthetic.DEFAULT_MAPPER_GBPS + "; drawn per host)")
          .value("--port-gbps", "G", "reducer hosts' links, Gbit/s (default 1)")
          .value("--slots", "K", "reducers a host runs at once (default unlimited)")
          .value(
              "--topology",
              "fat-tree[:K]|vl2[:DA:DI[:SERVERS]]",
              "the fabric (fabric only; default " + FabricWorkload.DEFAULT_TOPOLOGY + ")")
          .value(
              "--width",
              "W[,W...]",
              "flows of a coflow (fabric only; default " + FabricWorkload.DEFAULT_WIDTH + ")")
          .value("--switch-gbps", "G", "links between switches (fabric only; default as ports)")
          .value("--trace", "FILE", "another trace in the Facebook trace's format")
          .value("--out", "DIR", "write coflows.csv and charts there")
          .flag("--json", "end with one JSON line");

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  /** What to run, checked before anything runs. */
  private record Plan(
      String workload,
      List<String> schemes,
      String reference,
      int hosts,
      double rate,
      int coflows,
      int width,
      Fabric fabric,
      int trials,
      long seed,
      double portBytesPerSec,
      double mapperBytesPerSec,
      int slots,
      double delta,
      double resolution,
      boolean workConserving,
      Path out,
      boolean json,
      CoflowTrace trace,
      String sweep,
      double[] sweepValues) {

    /** The runs to make: this one, or one per value of the swept parameter. */
    List<Plan> points() {
      if (sweep == null) {
        return List.of(this);
      }
      List<Plan> points = new ArrayList<>();
      for (double v : sweepValues) {
        points.add(
            new Plan(
                workload,
                schemes,
                reference,
                sweep.equals("hosts") ? (int) v : hosts,
                sweep.equals("rate") ? v : rate,
                sweep.equals("coflows") ? (int) v : coflows,
                sweep.equals("width") ? (int) v : width,
                fabric,
                trials,
                seed,
                portBytesPerSec,
                mapperBytesPerSec,
                slots,
                delta,
                resolution,
                workConserving,
                out,
                json,
                trace,
                null,
                null));
      }
      return points;
    }

    /** The swept parameter's value in this run. */
    double value(String parameter) {
      return switch (parameter) {
        case "hosts" -> hosts;
        case "rate" -> rate;
        case "width" -> width;
        default -> coflows;
      };
    }
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Plan plan;
    try {
      plan = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("coflow simulate: " + e.getMessage());
      return USAGE;
    }
    List<String> csv = new ArrayList<>();
    csv.add(
        (plan.sweep() == null ? "" : plan.sweep() + ",")
            + "trial,scheme,coflow,arrival_s,cct_s,lower_bound_s");
    List<Plan> points = plan.points();
    Progress progress = new Progress(err, points.size() * plan.trials() * plan.schemes().size());
    List<Map<String, SchemeReport>> results = new ArrayList<>();
    try {
      for (Plan point : points) {
        String prefix = plan.sweep() == null ? "" : format(point.value(plan.sweep())) + ",";
        results.add(simulate(point, csv, prefix, progress));
      }
    } catch (SchemeFailure e) {
      progress.done();
      err.println("coflow simulate: " + e.getMessage());
      return FAILURE;
    }
    progress.done();
    Map<String, SchemeReport> last = results.get(results.size() - 1);
    if (plan.out() != null) {
      try {
        Files.write(plan.out().resolve("coflows.csv"), csv);
        Plan lastPoint = points.get(points.size() - 1);
        Charts.write(plan.out(), last.values(), plan.reference(), title(lastPoint));
        if (plan.sweep() != null) {
          Charts.writeSweep(
              plan.out(), plan.sweep(), plan.sweepValues(), results, sweepTitle(plan));
        }
      } catch (IOException e) {
        err.println("coflow simulate: cannot write " + plan.out() + ": " + e.getMessage());
        return FAILURE;
      }
    }
    if (plan.json()) {
      if (plan.sweep() == null) {
        out.println(json(plan, last).toString());
      } else {
        ObjectNode root = JSON.createObjectNode();
        root.put("sweep", plan.sweep());
        ArrayNode list = root.putArray("points");
        for (int i = 0; i < points.size(); i++) {
          list.add(json(points.get(i), results.get(i)));
        }
        out.println(root.toString());
      }
    } else {
      for (int i = 0; i < points.size(); i++) {
        table(out, points.get(i), results.get(i));
      }
    }
    return 0;
  }

  /** Runs every trial of one parameter setting; appends its rows to {@code csv}. */
  private static Map<String, SchemeReport> simulate(
      Plan plan, List<String> csv, String prefix, Progress progress) throws SchemeFailure {
    Map<String, SchemeReport> reports = new LinkedHashMap<>();
    for (String s : plan.schemes()) {
      reports.put(s, new SchemeReport(s));
    }
    RpcSynthetic synthetic =
        plan.workload().equals("rpc-synthetic") ? new RpcSynthetic(plan.trace()) : null;
    for (int t = 0; t < plan.trials(); t++) {
      long seed = plan.seed() + t;
      Instance instance =
          switch (plan.workload()) {
            case "fb" -> FbReplay.instance(plan.trace(), plan.portBytesPerSec(), plan.coflows());
            case "fabric" ->
                FabricWorkload.instance(
                    plan.fabric(),
                    plan.portBytesPerSec(),
                    plan.coflows(),
                    plan.width(),
                    plan.rate(),
                    seed);
            default ->
                synthetic.instance(
                    plan.hosts(), plan.coflows(), plan.rate(), plan.mapperBytesPerSec(), seed);
          };
      if (plan.slots() != Host.UNLIMITED_SLOTS) {
        instance = withReducerSlots(instance, plan.slots());
      }
      double[] bounds = new double[instance.coflows().size()];
      double[] crossing = new double[bounds.length];
      for (int i = 0; i < bounds.length; i++) {
        Coflow c = instance.coflows().get(i);
        double[] remote = IsolatedLowerBound.remoteBytes(c, instance.hosts());
        bounds[i] = IsolatedLowerBound.of(c, instance.hosts(), remote);
        crossing[i] = Arrays.stream(remote).sum();
      }
      double pooled = PooledSrptBound.sumOfCcts(instance, crossing);
      Map<String, Simulation.Outcome> outcomes = runSchemes(plan, instance, seed, t, progress);
      double[] reference = outcomes.get(plan.reference()).cct();
      for (String scheme : plan.schemes()) {
        Simulation.Outcome o = outcomes.get(scheme);
        reports
            .get(scheme)
            .add(o, bounds, pooled, scheme.equals(plan.reference()) ? null : reference);
        for (int i = 0; i < o.cct().length; i++) {
          csv.add(
              prefix
                  + String.format(
                      Locale.ROOT,
                      "%d,%s,%s,%.6f,%.6f,%.6f",
                      t,
                      scheme,
                      instance.coflows().get(i).id(),
                      instance.coflows().get(i).arrival(),
                      o.cct()[i],
                      bounds[i]));
        }
      }
    }
    return reports;
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** A scheme threw: the message says which, in which trial, and why. */
  private static final class SchemeFailure extends Exception {
    SchemeFailure(String message) {
      super(message);
    }
  }

  /** Runs every scheme on one trial's instance, as many at once as there are cores. */
  private static Map<String, Simulation.Outcome> runSchemes(
      Plan plan, Instance instance, long seed, int trial, Progress progress) throws SchemeFailure {
    SchemeOptions options = new SchemeOptions(seed, plan.delta(), plan.workConserving());
    int threads = Math.min(plan.schemes().size(), Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      Map<String, Future<Simulation.Outcome>> futures = new LinkedHashMap<>();
      for (String scheme : plan.schemes()) {
        futures.put(
            scheme,
            pool.submit(
                () -> {
                  Simulation.Outcome o =
                      Simulation.run(instance, scheme, options, plan.resolution());
                  progress.step("trial " + (trial + 1) + "/" + plan.trials() + " " + scheme);
                  return o;
                }));
      }
      Map<String, Simulation.Outcome> outcomes = new LinkedHashMap<>();
      for (Map.Entry<String, Future<Simulation.Outcome>> f : futures.entrySet()) {
        try {
          outcomes.put(f.getKey(), f.getValue().get());
        } catch (ExecutionException e) {
          throw new SchemeFailure(
              "scheme " + f.getKey() + " failed in trial " + (trial + 1) + ": " + e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SchemeFailure("interrupted in trial " + (trial + 1));
        }
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The instance with at most {@code slots} reducers at once on each host that may run reducers
   * (section IV-D): reducers beyond the slots free wait for a later wave.
   */
  static Instance withReducerSlots(Instance instance, int slots) {
    List<Host> hosts = new ArrayList<>(instance.hosts().size());
    for (Host h : instance.hosts()) {
      hosts.add(
          h.canHostReducers()
              ? new Host(h.id(), h.inBytesPerSec(), h.outBytesPerSec(), slots, true)
              : h);
    }
    return new Instance(hosts, instance.coflows(), instance.fabric());
  }

  private static Plan parse(String[] args) {
    Flags f = OPTIONS.parse(args);
    String workload = f.string("--workload", null);
    if (workload == null || !WORKLOADS.contains(workload)) {
      throw new IllegalArgumentException(
          "--workload: expected fb, rpc-synthetic or fabric, got "
              + (workload == null ? "nothing" : "\"" + workload + "\""));
    }
    boolean fabricWorkload = workload.equals("fabric");
    for (String option : List.of("--topology", "--width", "--switch-gbps")) {
      if (f.has(option) && !fabricWorkload) {
        throw new IllegalArgumentException(option + " is for --workload fabric only");
      }
    }
    for (String option : List.of("--hosts", "--mapper-gbps", "--trace")) {
      if (f.has(option) && fabricWorkload) {
        throw new IllegalArgumentException(
            option + " does not apply to --workload fabric (the topology sets the hosts)");
      }
    }
    List<String> schemes =
        f.list("--schemes", fabricWorkload ? String.join(",", Schemes.routing()) : DEFAULT_SCHEMES);
    for (String s : schemes) {
      try {
        Schemes.require(s);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--schemes: " + e.getMessage());
      }
      if (fabricWorkload && !Schemes.routing().contains(s)) {
        throw new IllegalArgumentException(
            "--schemes: "
                + s
                + " does not choose paths, so it cannot run on a multi-path fabric (schemes that"
                + " do: "
                + String.join(", ", Schemes.routing())
                + ")");
      }
    }
    String reference =
        f.string(
            "--reference",
            schemes.contains("neat")
                ? "neat"
                : schemes.contains("ecmp-fair") ? "ecmp-fair" : schemes.get(0));
    if (!schemes.contains(reference)) {
      throw new IllegalArgumentException(
          "--reference: \"" + reference + "\" is not one of --schemes");
    }
    if (f.has("--rate") && f.has("--all-at-once")) {
      throw new IllegalArgumentException("give --rate or --all-at-once, not both");
    }
    boolean fb = workload.equals("fb");
    double port = f.positiveDouble("--port-gbps", 1) * 1.25e8;
    Fabric fabric =
        fabricWorkload
            ? FabricWorkload.topology(
                f.string("--topology", FabricWorkload.DEFAULT_TOPOLOGY),
                port,
                f.has("--switch-gbps") ? f.positiveDouble("--switch-gbps", 1) * 1.25e8 : 0)
            : null;
    CoflowTrace trace = fabricWorkload ? null : TraceOption.read(f);
    Path out = f.has("--out") ? Path.of(f.string("--out", null)) : null;
    if (out != null) { // fail now, not after a long run
      try {
        Files.createDirectories(out);
      } catch (IOException e) {
        throw new IllegalArgumentException("--out: cannot create " + out + ": " + e.getMessage());
      }
      if (!Files.isWritable(out)) {
        throw new IllegalArgumentException("--out: cannot write into " + out);
      }
    }
    int[] coflowList =
        f.positiveInts(
            "--coflows", fb ? trace.coflows().size() : fabricWorkload ? FABRIC_COFLOWS : 1000);
    if (fb) { // the trace has no more
      coflowList =
          Arrays.stream(coflowList).map(c -> Math.min(c, trace.coflows().size())).toArray();
    }
    int[] hostList = fabricWorkload ? new int[] {fabric.hosts()} : f.positiveInts("--hosts", 100);
    int[] widthList = f.positiveInts("--width", FabricWorkload.DEFAULT_WIDTH);
    double[] rateList =
        f.has("--all-at-once")
            ? new double[] {0}
            : f.positiveDoubles("--rate", fabricWorkload ? FABRIC_RATE : 20);
    String sweep = null;
    double[] sweepValues = null;
    for (String name : List.of("hosts", "rate", "coflows", "width")) {
      double[] values =
          switch (name) {
            case "hosts" -> Arrays.stream(hostList).asDoubleStream().toArray();
            case "rate" -> rateList;
            case "width" -> Arrays.stream(widthList).asDoubleStream().toArray();
            default -> Arrays.stream(coflowList).asDoubleStream().toArray();
          };
      if (values.length > 1) {
        if (sweep != null) {
          throw new IllegalArgumentException(
              "give a list of values for one of --hosts, --rate, --coflows, --width, not for --"
                  + sweep
                  + " and --"
                  + name);
        }
        sweep = name;
        sweepValues = values;
      }
    }
    return new Plan(
        workload,
        schemes,
        reference,
        hostList[0],
        rateList[0],
        coflowList[0],
        widthList[0],
        fabric,
        f.positiveInt("--trials", 1),
        f.longValue("--seed", 1),
        port,
        "drawn".equals(f.string("--mapper-gbps", null))
            ? 0
            : f.positiveDouble("--mapper-gbps", RpcSynthetic.DEFAULT_MAPPER_GBPS) * 1.25e8,
        f.has("--slots") ? f.positiveInt("--slots", 1) : Host.UNLIMITED_SLOTS,
        "none".equals(f.string("--delta", "none"))
            ? Double.POSITIVE_INFINITY
            : f.positiveDouble("--delta", Double.POSITIVE_INFINITY),
        f.nonNegativeDouble("--resolution", DEFAULT_RESOLUTION),
        f.has("--work-conserving"),
        out,
        f.has("--json"),
        trace,
        sweep,
        sweepValues);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode json(Plan plan, Map<String, SchemeReport> reports) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode schemes = root.putObject("schemes");
    for (SchemeReport r : reports.values()) {
      Summary cct = r.cct();
      Summary decision = r.decisionMicros();
      ObjectNode s = schemes.putObject(r.scheme());
      s.put("averageCct", cct.mean());
      s.put("p50Cct", cct.p50());
      s.put("p90Cct", cct.p90());
      s.put("p99Cct", cct.p99());
      s.put("maxCct", cct.max());
      s.put("lowerBoundRatio", r.lowerBoundRatio());
      s.put("decisions", decision.count());
      s.put("decisionMeanMicros", decision.mean());
      s.put("decisionP99Micros", decision.p99());
      if (!r.scheme().equals(plan.reference())) {
        s.put("fractionSlowerThan_" + plan.reference(), r.fractionSlowerThanReference());
        Summary speedup = r.speedupOverReference();
        s.put("p50SpeedupOver_" + plan.reference(), speedup.p50());
        s.put("p90SpeedupOver_" + plan.reference(), speedup.p90());
      }
      s.put("wallSeconds", r.wallSeconds());
    }
    root.put("averageCctBound", reports.values().iterator().next().averageCctBound());
    root.put("workload", plan.workload());
    root.put("trials", plan.trials());
    root.put("seed", plan.seed());
    root.put("coflows", plan.coflows());
    if (Double.isInfinite(plan.delta())) {
      root.putNull("delta"); // no starvation threshold
    } else {
      root.put("delta", plan.delta());
    }
    root.put("resolution", plan.resolution());
    if (plan.slots() != Host.UNLIMITED_SLOTS) {
      root.put("slots", plan.slots());
    }
    if (!plan.workload().equals("fb")) {
      root.put("hosts", plan.hosts());
      root.put("rate", plan.rate());
    }
    if (plan.fabric() != null) {
      root.put("topology", plan.fabric().name());
      root.put("switchGbps", switchGbps(plan.fabric()));
      root.put("width", plan.width());
    }
    return root;
  }

  private static String sweepTitle(Plan plan) {
    return String.format(
        Locale.ROOT,
        "%s, %s, %d trial(s), seed %d",
        plan.workload(),
        setting(plan, plan.sweep()),
        plan.trials(),
        plan.seed());
  }

  private static double switchGbps(Fabric fabric) {
    return fabric.innerCapacities()[0] / 1.25e8;
  }

  /** One line naming the run, for chart titles. */
  private static String title(Plan plan) {
    return String.format(
        Locale.ROOT, "%s, %s, seed %d", plan.workload(), setting(plan, null), plan.seed());
  }

  /** The run's parameters, but for {@code swept}: hosts or topology, coflows, width, arrivals. */
  private static String setting(Plan plan, String swept) {
    List<String> parts = new ArrayList<>();
    if (!"hosts".equals(swept) && plan.workload().equals("rpc-synthetic")) {
      parts.add(plan.hosts() + "+" + plan.hosts() + " hosts");
    }
    if (plan.fabric() != null) {
      parts.add(
          plan.fabric().name() + " (switch links " + format(switchGbps(plan.fabric())) + " Gbps)");
    }
    if (!"coflows".equals(swept)) {
      parts.add(plan.coflows() + " coflows");
    }
    if (!"width".equals(swept) && plan.fabric() != null) {
      parts.add("width " + plan.width());
    }
    if (!"rate".equals(swept) && !plan.workload().equals("fb")) {
      parts.add(plan.rate() > 0 ? "rate " + format(plan.rate()) + "/s" : "all at once");
    }
    return String.join(", ", parts);
  }

  private static void table(PrintStream out, Plan plan, Map<String, SchemeReport> reports) {
    out.printf(
        Locale.ROOT,
        "%s, %s, %d trial(s), seed %d%n",
        plan.workload(),
        setting(plan, null),
        plan.trials(),
        plan.seed());
    out.printf(
        "%-15s %10s %10s %10s %10s %10s %8s %12s %12s %10s %14s%n",
        "scheme",
        "avg_s",
        "p50_s",
        "p90_s",
        "p99_s",
        "max_s",
        "vs_lb",
        "dec_mean_us",
        "dec_p99_us",
        "slower_vs_" + plan.reference(),
        "speedup_p50/p90");
    for (SchemeReport r : reports.values()) {
      Summary c = r.cct();
      Summary d = r.decisionMicros();
      Summary s = r.speedupOverReference();
      out.printf(
          Locale.ROOT,
          "%-15s %10.3f %10.3f %10.3f %10.3f %10.3f %8.2f %12.1f %12.1f %10s %14s%n",
          r.scheme(),
          c.mean(),
          c.p50(),
          c.p90(),
          c.p99(),
          c.max(),
          r.lowerBoundRatio(),
          d.mean(),
          d.p99(),
          r.scheme().equals(plan.reference())
              ? "-"
              : String.format(Locale.ROOT, "%.1f%%", 100 * r.fractionSlowerThanReference()),
          r.scheme().equals(plan.reference())
              ? "-"
              : String.format(Locale.ROOT, "%.2fx/%.2fx", s.p50(), s.p90()));
    }
    out.printf(
        Locale.ROOT,
        "no scheme can average below %.3f s here (every port pooled, shortest first)%n",
        reports.values().iterator().next().averageCctBound());
  }

  /** Progress on stderr, shown once a run has taken more than two seconds. */
  private static final class Progress {
    private final PrintStream err;
    private final int total;
    private final long start = System.nanoTime();
    private int done;
    private boolean shown;

    Progress(PrintStream err, int total) {
      this.err = err;
      this.total = total;
    }

    synchronized void step(String what) {
      done++;
      double elapsed = (System.nanoTime() - start) / 1e9;
      if (elapsed > 2 || shown) {
        shown = true;
        int width = 30;
        int filled = (int) Math.round(width * (double) done / total);
        err.printf(
            Locale.ROOT,
            "\rsimulate [%s%s] %d/%d %-28s %6.1fs",
            "#".repeat(filled),
            " ".repeat(width - filled),
            done,
            total,
            what,
            elapsed);
        err.flush();
      }
    }

    synchronized void done() {
      if (shown) {
        err.println();
      }
    }
  }
}
