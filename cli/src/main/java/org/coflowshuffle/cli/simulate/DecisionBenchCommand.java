/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.DecisionBenchmark;
import org.coflowshuffle.simulator.workload.RpcSynthetic;

/**
 * {@code coflow bench decision}: the time of one scheduling decision (Algorithm 1 for RPC) on a
 * grid of cluster sizes and waiting coflows, and in the paper's Fig. 9 setting, with each coflow's
 * flows listed reducer by reducer and then, for the Fig. 9 row, sender by sender as {@code
 * simulate} lists them. Prints figures; it asserts nothing, since timings belong in benchmarks, not
 * tests.
 */
public final class DecisionBenchCommand implements Command {

  /** Untimed runs before the Fig. 9 row, so that the decisions it times run JIT-compiled code. */
  private static final int WARM_UP_RUNS = 3;

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench decision", "time scheduling decisions on a grid of hosts and waiting coflows")
          .value("--scheme", "rpc", "the scheme whose decisions are timed")
          .value("--hosts", "50,200,500", "cluster sizes of the grid; the largest is Fig. 9's")
          .value("--coflows", "1,10,100", "coflows waiting, per cell of the grid")
          .value(
              "--invocations",
              "50",
              "decisions timed per cell (four times as many in the Fig. 9 row)")
          .value("--arrivals", "100", "coflows arriving in the Fig. 9 row")
          .value("--lambda", "20", "their arrivals per second")
          .value("--seed", "1", "seed of the synthetic workload")
          .value("--trace", "FILE", "another trace in the Facebook trace's format");

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Flags flags;
    RpcSynthetic workload;
    try {
      flags = OPTIONS.parse(args);
      Schemes.require(flags.string("--scheme", "rpc"));
      flags.positiveInts("--hosts");
      flags.positiveInts("--coflows");
      flags.positiveDouble("--lambda", 20);
      workload = new RpcSynthetic(TraceOption.read(flags));
    } catch (IllegalArgumentException e) {
      err.println("coflow bench decision: " + e.getMessage());
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
    for (boolean byReducer : new boolean[] {true, false}) { // then as simulate lists the flows
      DecisionBenchmark.print(
          out,
          new DecisionBenchmark(workload, scheme, seed, 4 * invocations, byReducer)
              .arrivals(fig9Hosts, arrivals, lambda, WARM_UP_RUNS));
    }
    return 0;
  }
}
