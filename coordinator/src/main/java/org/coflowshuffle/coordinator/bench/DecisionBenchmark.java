package org.coflowshuffle.coordinator.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * Times single invocations of a scheme's decision (Algorithm 1 for RPC) as the exact runner makes
 * them, on synthetic coflows: a grid of cluster sizes and numbers of coflows that arrive together
 * and wait, and the paper's Fig. 9 setting (Poisson arrivals at 20 coflows/s).
 */
public final class DecisionBenchmark {

  /** One measured cell. */
  public record Cell(
      String setting,
      int hosts,
      int coflows,
      int invocations,
      double meanMicros,
      double p99Micros) {}

  private final String scheme;
  private final long seed;
  private final int maxInvocations;

  public DecisionBenchmark(String scheme, long seed, int maxInvocations) {
    this.scheme = scheme;
    this.seed = seed;
    this.maxInvocations = maxInvocations;
  }

  /** All {@code coflows} arrive at time 0: the first invocations see them all waiting. */
  public Cell waiting(int hosts, int coflows) {
    SyntheticCoflows gen = new SyntheticCoflows(seed);
    List<Host> cluster = gen.hosts(hosts);
    List<Coflow> list = new ArrayList<>();
    for (int i = 0; i < coflows; i++) {
      list.add(gen.coflow("C" + i, 0, hosts, gen.volumeGbit()));
    }
    return measure("waiting", hosts, coflows, new Instance(cluster, list));
  }

  /** Poisson arrivals at {@code lambda} coflows/s (the paper's Fig. 9 uses its Fig. 5 workload). */
  public Cell arrivals(int hosts, int coflows, double lambda) {
    SyntheticCoflows gen = new SyntheticCoflows(seed);
    List<Host> cluster = gen.hosts(hosts);
    List<Coflow> list = new ArrayList<>();
    double t = 0;
    for (int i = 0; i < coflows; i++) {
      t += gen.interArrival(lambda);
      list.add(gen.coflow("C" + i, t, hosts, gen.volumeGbit()));
    }
    return measure("lambda=" + lambda, hosts, coflows, new Instance(cluster, list));
  }

  private Cell measure(String setting, int hosts, int coflows, Instance instance) {
    TimedPolicy timed =
        new TimedPolicy(Schemes.create(scheme, SchemeOptions.defaults()), maxInvocations);
    try {
      ScheduleRunner.completionTimes(instance, timed);
    } catch (TimedPolicy.Enough e) {
      // measured enough invocations
    }
    long[] ns = Arrays.copyOf(timed.nanos, timed.count);
    Arrays.sort(ns);
    double mean = Arrays.stream(ns).average().orElse(0) / 1e3;
    double p99 =
        ns.length == 0
            ? 0
            : ns[Math.min(ns.length - 1, (int) Math.ceil(0.99 * ns.length) - 1)] / 1e3;
    return new Cell(setting, hosts, coflows, ns.length, mean, p99);
  }

  /** Prints a table row. */
  public static void print(PrintStream out, Cell c) {
    out.printf(
        "%-12s %6d %8d %12d %12.1f %12.1f%n",
        c.setting(), c.hosts(), c.coflows(), c.invocations(), c.meanMicros(), c.p99Micros());
  }

  /** Wraps a policy, timing each decision; stops the run after enough of them. */
  private static final class TimedPolicy implements SchedulingPolicy {
    static final class Enough extends RuntimeException {
      Enough() {
        super(null, null, false, false);
      }
    }

    private final SchedulingPolicy inner;
    private final long[] nanos;
    private int count;

    TimedPolicy(SchedulingPolicy inner, int max) {
      this.inner = inner;
      this.nanos = new long[max];
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Decision decide(ClusterView view) {
      if (count == nanos.length) {
        throw new Enough();
      }
      long start = System.nanoTime();
      Decision d = inner.decide(view);
      nanos[count++] = System.nanoTime() - start;
      return d;
    }
  }
}
