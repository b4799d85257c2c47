package org.coflowshuffle.core.plan;

/**
 * Algorithm 2 over the relaxation (6) solved combinatorially by {@link RelatedMachinesPlacement},
 * on the bandwidth left over time. Reducer work is w_n, as in problem (4); locality is left to the
 * evaluation that compares this candidate with the others.
 */
public final class PouredPlacement implements PlacementMethod {

  private final PlacementMethod fallback = new GreedyPlacement();

  @Override
  public void place(
      CoflowDemand d,
      int[] reducers,
      boolean[] eligible,
      double[] loads,
      NetworkProfile net,
      int[] hostOf) {
    double[] work = new double[reducers.length];
    for (int i = 0; i < reducers.length; i++) {
      work[i] = d.work(reducers[i]);
    }
    HostCapacity capacity =
        new HostCapacity() {
          @Override
          public int hosts() {
            return net.hostCount();
          }

          @Override
          public double bytesBy(int j, double deadline) {
            return net.in(j).bytesBy(deadline);
          }

          @Override
          public double pinnedBytes(int j) {
            return loads[j];
          }
        };
    double upper = upperBound(work, eligible, loads, net);
    if (upper == Double.POSITIVE_INFINITY) {
      fallback.place(d, reducers, eligible, loads, net, hostOf);
      return;
    }
    int[] placed = RelatedMachinesPlacement.solve(work, capacity, eligible, upper).hostOf();
    for (int i = 0; i < reducers.length; i++) {
      hostOf[reducers[i]] = placed[i];
    }
  }

  /** Deadline met by a list schedule of w_n (no locality): feasible for the relaxation. */
  private static double upperBound(
      double[] work, boolean[] eligible, double[] loads, NetworkProfile net) {
    double[] load = loads.clone();
    double deadline = net.now();
    double[] sorted = work.clone();
    java.util.Arrays.sort(sorted);
    for (int i = sorted.length - 1; i >= 0; i--) {
      int best = -1;
      double bestFinish = Double.POSITIVE_INFINITY;
      for (int j = 0; j < eligible.length; j++) {
        if (eligible[j]) {
          double f = net.in(j).timeToCarry(load[j] + sorted[i]);
          if (best < 0 || f < bestFinish) {
            best = j;
            bestFinish = f;
          }
        }
      }
      if (best < 0) {
        return Double.POSITIVE_INFINITY;
      }
      load[best] += sorted[i];
      deadline = Math.max(deadline, bestFinish);
    }
    for (int j = 0; j < eligible.length; j++) {
      if (eligible[j] && loads[j] > 0) {
        deadline = Math.max(deadline, net.in(j).timeToCarry(loads[j]));
      }
    }
    // Slightly above, so that the bisection's first test passes despite rounding.
    return deadline == Double.POSITIVE_INFINITY ? deadline : deadline * (1 + 1e-9) + 1e-12;
  }
}
