package org.coflowshuffle.coordinator.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import org.coflowshuffle.coordinator.bench.DecisionBenchmark;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * {@code coflow bench decision}: the time of one scheduling decision (Algorithm 1 for RPC) on a
 * grid of cluster sizes and waiting coflows, and in the paper's Fig. 9 setting. Prints figures; it
 * asserts nothing, since timings belong in benchmarks, not tests.
 */
public final class BenchCommand implements Command {

  private static final String USAGE_LINE =
      "usage: coflow bench decision [--scheme NAME] [--hosts 50,200,500] [--coflows 1,10,100]"
          + " [--invocations N] [--arrivals N] [--lambda L] [--seed S]";

  @Override
  public String summary() {
    return "time scheduling decisions: bench decision [--hosts ...] [--coflows ...]";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    if (args.length == 0 || !args[0].equals("decision")) {
      err.println("coflow bench: expected \"decision\"; " + USAGE_LINE);
      return USAGE;
    }
    String scheme = "rpc";
    int[] hosts = {50, 200, 500};
    int[] coflows = {1, 10, 100};
    int invocations = 50;
    int arrivals = 100;
    double lambda = 20;
    long seed = 1;
    try {
      for (int i = 1; i < args.length; i++) {
        String flag = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option " + flag + " needs a value");
        }
        String value = args[++i];
        switch (flag) {
          case "--scheme" -> scheme = value;
          case "--hosts" -> hosts = positiveList(flag, value);
          case "--coflows" -> coflows = positiveList(flag, value);
          case "--invocations" -> invocations = positiveList(flag, value)[0];
          case "--arrivals" -> arrivals = Integer.parseInt(value);
          case "--lambda" -> lambda = Double.parseDouble(value);
          case "--seed" -> seed = Long.parseLong(value);
          default -> throw new IllegalArgumentException("unknown option \"" + flag + "\"");
        }
      }
      if (!Schemes.names().contains(scheme)) {
        throw new IllegalArgumentException("unknown scheme \"" + scheme + "\"");
      }
      if (!(lambda > 0)) {
        throw new IllegalArgumentException("--lambda must be > 0, got " + lambda);
      }
    } catch (IllegalArgumentException e) {
      err.println("coflow bench: " + e.getMessage() + "; " + USAGE_LINE);
      return USAGE;
    }
    DecisionBenchmark bench = new DecisionBenchmark(scheme, seed, invocations);
    err.println("coflow bench: warming up");
    new DecisionBenchmark(scheme, seed + 1, 300).waiting(50, 10);
    out.printf(
        "scheme %s, %d invocations per cell, seed %d, %d cores%n",
        scheme, invocations, seed, Runtime.getRuntime().availableProcessors());
    out.printf(
        "%-12s %6s %8s %12s %12s %12s%n",
        "setting", "hosts", "coflows", "invocations", "mean_us", "p99_us");
    for (int h : hosts) {
      for (int c : coflows) {
        DecisionBenchmark.print(out, bench.waiting(h, c));
      }
    }
    if (arrivals > 0) {
      int fig9Hosts = Arrays.stream(hosts).max().getAsInt();
      DecisionBenchmark.print(
          out,
          new DecisionBenchmark(scheme, seed, 4 * invocations)
              .arrivals(fig9Hosts, arrivals, lambda));
    }
    return 0;
  }

  private static int[] positiveList(String flag, String value) {
    try {
      int[] list =
          Arrays.stream(value.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
      if (list.length == 0 || Arrays.stream(list).anyMatch(v -> v <= 0)) {
        throw new NumberFormatException();
      }
      return list;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          flag + ": expected positive integers, got \"" + value + "\"");
    }
  }
}
