/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Set;
import org.coflowshuffle.coordinator.cli.Command;
import org.coflowshuffle.coordinator.cli.Flags;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.DecisionBenchmark;
import org.coflowshuffle.simulator.workload.RpcSynthetic;

/**
 * {@code coflow bench decision}: the time of one scheduling decision (Algorithm 1 for RPC) on a
 * grid of cluster sizes and waiting coflows, and in the paper's Fig. 9 setting. Prints figures; it
 * asserts nothing, since timings belong in benchmarks, not tests.
 */
public final class BenchCommand implements Command {

  /** Untimed runs before the Fig. 9 row: about as many decisions as the JIT took here to settle. */
  private static final int WARM_UP_RUNS = 3;

  private static final String USAGE_LINE =
      "usage: coflow bench decision [--scheme NAME] [--hosts 50,200,500] [--coflows 1,10,100]"
          + " [--invocations N] [--arrivals N] [--lambda L] [--seed S] [--trace FILE]";

  @Override
  public String summary() {
    return "time scheduling decisions on a grid of hosts and waiting coflows";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Flags flags;
    RpcSynthetic workload;
    try {
      flags =
          new Flags(
              args,
              Set.of(
                  "--scheme",
                  "--hosts",
                  "--coflows",
                  "--invocations",
                  "--arrivals",
                  "--lambda",
                  "--seed",
                  "--trace"),
              Set.of());
      Schemes.require(flags.string("--scheme", "rpc"));
      flags.positiveInts("--hosts");
      flags.positiveInts("--coflows");
      flags.positiveDouble("--lambda", 20);
      workload = new RpcSynthetic(TraceOption.read(flags));
    } catch (IllegalArgumentException e) {
      err.println("coflow bench decision: " + e.getMessage() + "; " + USAGE_LINE);
      return USAGE;
    }
    String scheme = flags.string("--scheme", "rpc");
    int[] hosts = flags.positiveInts("--hosts", 50, 200, 500);
    int[] coflows = flags.positiveInts("--coflows", 1, 10, 100);
    int invocations = flags.positiveInt("--invocations", 50);
    int arrivals = flags.positiveInt("--arrivals", 100);
    double lambda = flags.positiveDouble("--lambda", 20);
    long seed = flags.longValue("--seed", 1);
    err.println("coflow bench: warming up");
    new DecisionBenchmark(workload, scheme, seed + 1, 300).waiting(50, 10);
    out.printf(
        "scheme %s, %d invocations per cell, seed %d, %d cores%n",
        scheme, invocations, seed, Runtime.getRuntime().availableProcessors());
    DecisionBenchmark.printHeader(out);
    DecisionBenchmark bench = new DecisionBenchmark(workload, scheme, seed, invocations);
    for (int h : hosts) {
      for (int c : coflows) {
        DecisionBenchmark.print(out, bench.waiting(h, c));
      }
    }
    int fig9Hosts = Arrays.stream(hosts).max().getAsInt();
    DecisionBenchmark.print(
        out,
        new DecisionBenchmark(workload, scheme, seed, 4 * invocations)
            .arrivals(fig9Hosts, arrivals, lambda, WARM_UP_RUNS));
    return 0;
  }
}
