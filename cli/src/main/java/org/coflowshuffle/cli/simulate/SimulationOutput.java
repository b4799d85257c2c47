/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.simulator.SchemeReport;
import org.coflowshuffle.simulator.Summary;

/**
 * What {@code coflow simulate} prints: a table per run, or its JSON, and the titles of its charts.
 */
final class SimulationOutput {

  private SimulationOutput() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A number as short as it reads: no trailing zeros. */
  static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  static ObjectNode json(SimulationPlan plan, Map<String, SchemeReport> reports) {
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
      if (plan.waves() != null) {
        root.put("waves", plan.waves().id());
      }
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

  static String sweepTitle(SimulationPlan plan) {
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
  static String title(SimulationPlan plan) {
    return String.format(
        Locale.ROOT, "%s, %s, seed %d", plan.workload(), setting(plan, null), plan.seed());
  }

  /** The run's parameters, but for {@code swept}: hosts or topology, coflows, width, arrivals. */
  private static String setting(SimulationPlan plan, String swept) {
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

  static void table(PrintStream out, SimulationPlan plan, Map<String, SchemeReport> reports) {
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
}
