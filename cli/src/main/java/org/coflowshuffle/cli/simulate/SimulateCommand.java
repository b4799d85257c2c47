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
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.simulator.Charts;
import org.coflowshuffle.simulator.IsolatedLowerBound;
import org.coflowshuffle.simulator.PooledSrptBound;
import org.coflowshuffle.simulator.SchemeReport;
import org.coflowshuffle.simulator.Simulation;
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

  /** Coflows each scheme replays untimed before the first trial ({@link #warmUp}). */
  static final int WARM_UP_COFLOWS = 100;

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "simulate", "replay a workload under several schemes and compare their CCTs")
          .requiredValue(
              "--workload",
              "fb|rpc-synthetic|fabric",
              "the Facebook trace, the RPC paper's synthetic workload, or Rapier's fabric")
          .value(
              "--schemes",
              SimulationPlan.DEFAULT_SCHEMES,
              "schemes side by side (fabric: those choosing paths)")
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
                  + SimulationPlan.DEFAULT_RESOLUTION
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
              "--waves",
              "whole|last-wave|per-wave",
              "how rpc and rpc-faithful schedule a coflow whose reducers do not all fit the free"
                  + " slots (default whole for rpc, per-wave for rpc-faithful)")
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

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    SimulationPlan plan;
    try {
      plan = SimulationPlan.parse(OPTIONS.parse(args));
    } catch (IllegalArgumentException e) {
      err.println("coflow simulate: " + e.getMessage());
      return USAGE;
    }
    List<String> csv = new ArrayList<>();
    csv.add(
        (plan.sweep() == null ? "" : plan.sweep() + ",")
            + "trial,scheme,coflow,arrival_s,cct_s,lower_bound_s");
    List<SimulationPlan> points = plan.points();
    Progress progress = new Progress(err, points.size() * plan.trials() * plan.schemes().size());
    List<Map<String, SchemeReport>> results = new ArrayList<>();
    try {
      for (SimulationPlan point : points) {
        String prefix =
            plan.sweep() == null ? "" : SimulationOutput.format(point.value(plan.sweep())) + ",";
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
        SimulationPlan lastPoint = points.get(points.size() - 1);
        Charts.write(
            plan.out(), last.values(), plan.reference(), SimulationOutput.title(lastPoint));
        if (plan.sweep() != null) {
          Charts.writeSweep(
              plan.out(),
              plan.sweep(),
              plan.sweepValues(),
              results,
              SimulationOutput.sweepTitle(plan));
        }
      } catch (IOException e) {
        err.println("coflow simulate: cannot write " + plan.out() + ": " + e.getMessage());
        return FAILURE;
      }
    }
    if (plan.json()) {
      if (plan.sweep() == null) {
        out.println(SimulationOutput.json(plan, last).toString());
      } else {
        ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("sweep", plan.sweep());
        ArrayNode list = root.putArray("points");
        for (int i = 0; i < points.size(); i++) {
          list.add(SimulationOutput.json(points.get(i), results.get(i)));
        }
        out.println(root.toString());
      }
    } else {
      for (int i = 0; i < points.size(); i++) {
        SimulationOutput.table(out, points.get(i), results.get(i));
      }
    }
    return 0;
  }

  /** Runs every trial of one parameter setting; appends its rows to {@code csv}. */
  private static Map<String, SchemeReport> simulate(
      SimulationPlan plan, List<String> csv, String prefix, Progress progress)
      throws SchemeFailure {
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
      if (t == 0) {
        warmUp(plan, instance, seed);
      }
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

  /** A scheme threw: the message says which, in which trial, and why. */
  private static final class SchemeFailure extends Exception {
    SchemeFailure(String message) {
      super(message);
    }
  }

  /**
   * Runs every scheme, untimed, on the first {@link #WARM_UP_COFLOWS} coflows of the first trial,
   * so that the decisions timed are those of code the JIT has compiled, as a coordinator's are
   * after its first minutes: else the scheme with the most code to compile pays for it in its mean
   * decision time, and the comparison of schemes measures compilation.
   */
  private static void warmUp(SimulationPlan plan, Instance instance, long seed)
      throws SchemeFailure {
    List<Coflow> coflows = instance.coflows();
    Instance prefix =
        new Instance(
            instance.hosts(),
            coflows.subList(0, Math.min(WARM_UP_COFLOWS, coflows.size())),
            instance.fabric());
    runSchemes(plan, prefix, seed, 0, null);
  }

  /**
   * Runs every scheme on one trial's instance, as many at once as there are cores; tells {@code
   * progress} of each, unless null.
   */
  private static Map<String, Simulation.Outcome> runSchemes(
      SimulationPlan plan, Instance instance, long seed, int trial, Progress progress)
      throws SchemeFailure {
    SchemeOptions options =
        new SchemeOptions(seed, plan.delta(), plan.workConserving(), false, plan.waves());
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
                  if (progress != null) {
                    progress.step("trial " + (trial + 1) + "/" + plan.trials() + " " + scheme);
                  }
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
