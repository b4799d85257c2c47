/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.WaveRule;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.workload.FabricWorkload;
import org.coflowshuffle.simulator.workload.RpcSynthetic;

/**
 * What {@code coflow simulate} runs, read from its options and checked before anything runs: the
 * workload and its setting, the schemes, the trials, and at most one parameter swept over a list of
 * values.
 */
record SimulationPlan(
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
    WaveRule waves,
    double delta,
    double resolution,
    boolean workConserving,
    Path out,
    boolean json,
    CoflowTrace trace,
    String sweep,
    double[] sweepValues) {

  /** The runs to make: this one, or one per value of the swept parameter. */
  List<SimulationPlan> points() {
    if (sweep == null) {
      return List.of(this);
    }
    List<SimulationPlan> points = new ArrayList<>();
    for (double v : sweepValues) {
      points.add(
          new SimulationPlan(
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
              waves,
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

  /** The rule named by {@code --waves}. */
  private static WaveRule waves(String id) {
    try {
      return WaveRule.of(id);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--waves: " + e.getMessage());
    }
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

  private static final List<String> WORKLOADS = List.of("fb", "rpc-synthetic", "fabric");

  /**
   * Default of {@code --resolution}: a flow ending wakes the policy within 1% of the oldest active
   * coflow's age (arrivals and coflow completions always wake it at once).
   */
  static final double DEFAULT_RESOLUTION = 0.01;

  /** Schemes compared on fb and rpc-synthetic unless {@code --schemes} says otherwise. */
  static final String DEFAULT_SCHEMES = "rpc,neat,varys,fair";

  /** Coflows of the fabric workload: Rapier's Fig. 4 sends 20 per round. */
  private static final int FABRIC_COFLOWS = 20;

  /** Arrivals per second of the fabric workload. */
  private static final double FABRIC_RATE = 5;

  /**
   * The plan the options ask for.
   *
   * @throws IllegalArgumentException one line naming the option and the value
   */
  static SimulationPlan parse(Flags f) {
    String workload = f.string("--workload", null);
    if (workload == null || !WORKLOADS.contains(workload)) {
      throw new IllegalArgumentException(
          "--workload: expected fb, rpc-synthetic or fabric, got "
              + (workload == null ? "nothing" : "\"" + workload + "\""));
    }
    boolean fabricWorkload = workload.equals("fabric");
    if (f.has("--waves") && !f.has("--slots")) {
      throw new IllegalArgumentException(
          "--waves needs --slots: with unlimited slots every reducer starts in the first wave");
    }
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
    return new SimulationPlan(
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
        f.has("--waves") ? waves(f.string("--waves", null)) : null,
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
}
