/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.io.PrintStream;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.workload.RpcSynthetic;

/**
 * Times single invocations of a scheme's decision (Algorithm 1 for RPC) as the exact runner makes
 * them, on the paper's synthetic workload: a grid of cluster sizes and numbers of coflows that
 * arrive together and wait, and the paper's Fig. 9 setting (Poisson arrivals at 20 coflows/s). Each
 * coflow's flows are listed reducer by reducer unless asked otherwise: the listing changes no
 * decision of {@code rpc}, only where in memory the flows whose rates change lie.
 */
public final class DecisionBenchmark {

  /** One measured cell; times in microseconds. */
  public record Cell(String setting, int hosts, int coflows, Summary micros) {}

  private final RpcSynthetic workload;
  private final String scheme;
  private final long seed;
  private final int maxInvocations;
  private final boolean byReducer;

  /** Timing decisions on coflows whose flows are listed reducer by reducer. */
  public DecisionBenchmark(RpcSynthetic workload, String scheme, long seed, int maxInvocations) {
    this(workload, scheme, seed, maxInvocations, true);
  }

  /**
   * @param byReducer whether each coflow lists its flows reducer by reducer, the order in which a
   *     reducer fetches them and receiver-driven rates change them; else sender by sender, as
   *     {@code simulate} lists them
   */
  public DecisionBenchmark(
      RpcSynthetic workload, String scheme, long seed, int maxInvocations, boolean byReducer) {
    this.workload = workload;
    this.scheme = scheme;
    this.seed = seed;
    this.maxInvocations = maxInvocations;
    this.byReducer = byReducer;
  }

  /** All {@code coflows} arrive at time 0: the first invocations see them all waiting. */
  public Cell waiting(int hosts, int coflows) {
    return measure("waiting", hosts, coflows, instance(hosts, coflows, 0));
  }

  /**
   * Poisson arrivals at {@code lambda} coflows/s, timed after {@code warmUps} untimed runs of the
   * same instance (so that the row stands for a coordinator that has been running, JIT-compiled,
   * and the heap holds one instance, not one per run).
   */
  public Cell arrivals(int hosts, int coflows, double lambda, int warmUps) {
    Instance instance = instance(hosts, coflows, lambda);
    for (int w = 0; w < warmUps; w++) {
      measure("warm-up", hosts, coflows, instance);
    }
    return measure("lambda=" + lambda + (byReducer ? "" : " by-sender"), hosts, coflows, instance);
  }

  /** The workload as {@code simulate} draws it by default, listed as asked. */
  private Instance instance(int hosts, int coflows, double lambda) {
    return workload.instance(
        hosts, coflows, lambda, RpcSynthetic.DEFAULT_MAPPER_GBPS * 1.25e8, seed, byReducer);
  }

  private Cell measure(String setting, int hosts, int coflows, Instance instance) {
    // No starvation threshold, as simulate's default: the decisions timed are SRTF's.
    SchemeOptions options = new SchemeOptions(seed, Double.POSITIVE_INFINITY, false);
    TimedPolicy timed = new TimedPolicy(Schemes.create(scheme, options), maxInvocations);
    try {
      ScheduleRunner.completionTimes(instance, timed);
    } catch (TimedPolicy.Enough e) {
      // measured enough invocations
    }
    return new Cell(setting, hosts, coflows, Summary.of(timed.micros()));
  }

  /** The table's header line. */
  public static void printHeader(PrintStream out) {
    out.printf(
        "%-12s %6s %8s %12s %12s %12s%n",
        "setting", "hosts", "coflows", "invocations", "mean_us", "p99_us");
  }

  /** Prints a table row. */
  public static void print(PrintStream out, Cell c) {
    out.printf(
        "%-12s %6d %8d %12d %12.1f %12.1f%n",
        c.setting(),
        c.hosts(),
        c.coflows(),
        c.micros().count(),
        c.micros().mean(),
        c.micros().p99());
  }
}
