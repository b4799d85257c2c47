/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.FlowTable;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.trace.TraceCoflow;

/**
 * The {@code rpc-synthetic} workload of the RPC paper's section VI-B: the trace's jobs with more
 * than 20 Gbit of shuffle give a size distribution; coflows draw their size from it, and each one
 * splits its volume at random over N mapper hosts and N reducers (so wider clusters mean more,
 * smaller flows). Every host's NIC is drawn from {0.1, 0.2, 0.5, 1, 10, 40} Gbps. Mapper hosts run
 * no reducers. Arrivals are Poisson at a given rate, or all at time 0.
 */
public final class RpcSynthetic {

  /** The paper's threshold for data-intensive jobs: 20 Gbit of shuffle. */
  public static final double MIN_BYTES = 20e9 / 8;

  /**
   * Default NIC of the mapper hosts, Gbps: the fastest of the paper's set, so that placement at the
   * heterogeneous reducer hosts decides the CCT. With mappers drawn from the set too, a 0.1 Gbps
   * mapper holding 1/N of a 366 GB job bounds every scheme at hundreds of seconds, which cannot
   * give the paper's 0.141 s average; see docs/results.md.
   */
  public static final double DEFAULT_MAPPER_GBPS = 40;

  private static final double[] GBPS = {0.1, 0.2, 0.5, 1, 10, 40};
  private static final double GBIT = 1.25e8;

  private final double[] sizes;

  /** The size distribution: shuffle bytes of the trace's coflows above {@link #MIN_BYTES}. */
  public RpcSynthetic(CoflowTrace trace) {
    sizes =
        trace.coflows().stream()
            .mapToDouble(TraceCoflow::totalBytes)
            .filter(b -> b > MIN_BYTES)
            .toArray();
    if (sizes.length == 0) {
      throw new IllegalArgumentException("the trace has no coflow above 20 Gbit of shuffle");
    }
  }

  /** How many trace jobs make the size distribution (the paper finds 96). */
  public int jobs() {
    return sizes.length;
  }

  /**
   * @param hosts N: N mapper hosts and N reducer hosts, and N reducers per coflow
   * @param rate Poisson arrivals per second; 0 for all coflows at time 0
   * @param mapperBytesPerSec NIC of every mapper host; 0 to draw it from the set like the others
   */
  public Instance instance(
      int hosts, int coflows, double rate, double mapperBytesPerSec, long seed) {
    return instance(hosts, coflows, rate, mapperBytesPerSec, seed, false);
  }

  /**
   * As {@link #instance(int, int, double, double, long)}, with each coflow's flows listed reducer
   * by reducer if {@code byReducer}, else sender by sender. The flows are the same either way, but
   * not every scheme's schedule is: some sum bytes flow by flow, in listing order, and the rounding
   * of those sums can reorder their decisions. {@code simulate} lists sender by sender, as the
   * published runs did.
   */
  public Instance instance(
      int hosts, int coflows, double rate, double mapperBytesPerSec, long seed, boolean byReducer) {
    Random random = new Random(seed);
    List<Host> cluster = new ArrayList<>(2 * hosts);
    for (int u = 0; u < hosts; u++) {
      double drawn = nic(random);
      double bw = mapperBytesPerSec > 0 ? mapperBytesPerSec : drawn;
      cluster.add(Host.sender("mapper" + u, bw));
    }
    for (int j = 0; j < hosts; j++) {
      double bw = nic(random);
      cluster.add(Host.of("reducer" + j, bw, bw));
    }
    List<Coflow> list = new ArrayList<>(coflows);
    double t = 0;
    for (int i = 0; i < coflows; i++) {
      t = nextArrival(t, rate, random);
      list.add(coflow("C" + i, t, hosts, sizes[random.nextInt(sizes.length)], random, byReducer));
    }
    return new Instance(cluster, list);
  }

  /**
   * The arrival after one at {@code t}: Poisson at {@code rate} per second, or {@code t} again for
   * rate 0 (all at once). Draws one number only when the rate is positive.
   */
  static double nextArrival(double t, double rate, Random random) {
    return rate > 0 ? t - Math.log(1 - random.nextDouble()) / rate : t;
  }

  private static Coflow coflow(
      String id, double arrival, int n, double bytes, Random random, boolean byReducer) {
    List<Reducer> reducers = new ArrayList<>(n);
    for (int r = 0; r < n; r++) {
      reducers.add(Reducer.free(id + ".r" + r));
    }
    double[] weight = new double[n * n];
    double sum = 0;
    for (int i = 0; i < weight.length; i++) {
      weight[i] = random.nextDouble();
      sum += weight[i];
    }
    FlowTable.Builder flows = new FlowTable.Builder(n * n);
    for (int i = 0; i < n * n; i++) {
      int u = byReducer ? i % n : i / n;
      int r = byReducer ? i / n : i % n;
      flows.add(u, r, bytes * weight[u * n + r] / sum);
    }
    return new Coflow(id, arrival, reducers, flows.build());
  }

  private static double nic(Random random) {
    return GBPS[random.nextInt(GBPS.length)] * GBIT;
  }
}
