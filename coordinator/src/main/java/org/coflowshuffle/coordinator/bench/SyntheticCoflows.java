package org.coflowshuffle.coordinator.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;

/**
 * Coflows shaped like the RPC paper's simulations (section VI-B): N mapper hosts and N reducer
 * hosts with NIC bandwidths drawn from {0.1, 0.2, 0.5, 1, 10, 40} Gbps; each coflow has N reducers
 * and its shuffle volume split at random over every mapper-reducer pair.
 */
final class SyntheticCoflows {

  private static final double[] GBPS = {0.1, 0.2, 0.5, 1, 10, 40};
  private static final double GBIT = 1.25e8;

  private final Random random;

  SyntheticCoflows(long seed) {
    this.random = new Random(seed);
  }

  /** N senders (indices 0..N-1, no reducers) then N reducer hosts (N..2N-1). */
  List<Host> hosts(int n) {
    List<Host> hosts = new ArrayList<>(2 * n);
    for (int u = 0; u < n; u++) {
      double bw = GBPS[random.nextInt(GBPS.length)] * GBIT;
      hosts.add(new Host("mapper" + u, bw, bw, Host.UNLIMITED_SLOTS, false));
    }
    for (int j = 0; j < n; j++) {
      double bw = GBPS[random.nextInt(GBPS.length)] * GBIT;
      hosts.add(Host.of("reducer" + j, bw, bw));
    }
    return hosts;
  }

  /**
   * A coflow of {@code gbit} shuffle volume over n mappers and n reducers, arriving at {@code
   * arrival}.
   */
  Coflow coflow(String id, double arrival, int n, double gbit) {
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
    List<Flow> flows = new ArrayList<>(n * n);
    for (int u = 0; u < n; u++) {
      for (int r = 0; r < n; r++) {
        flows.add(new Flow(u, r, gbit * GBIT * weight[u * n + r] / sum));
      }
    }
    return new Coflow(id, arrival, reducers, flows);
  }

  /** A shuffle volume in Gbit, log-uniform over [20, 2000] (the paper keeps jobs over 20 Gbit). */
  double volumeGbit() {
    return 20 * Math.pow(100, random.nextDouble());
  }

  /** Exponential inter-arrival time for rate lambda. */
  double interArrival(double lambda) {
    return -Math.log(1 - random.nextDouble()) / lambda;
  }
}
