/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
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
    boolean allConstant = true;
    for (int j = 0; j < eligible.length; j++) {
      allConstant &= !eligible[j] || net.in(j).isConstant();
    }
    final boolean constant = allConstant;
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

          @Override
          public boolean fixedOrder() {
            return constant;
          }
        };
    double upper = upperBound(work, eligible, loads, net);
    if (upper == Double.POSITIVE_INFINITY) {
      fallback.place(d, reducers, eligible, loads, net, hostOf);
      return;
    }
    int[] placed = RelatedMachinesPlacement.place(work, capacity, eligible, net.now(), upper);
    for (int i = 0; i < reducers.length; i++) {
      hostOf[reducers[i]] = placed[i];
    }
  }

  /**
   * A deadline for which a fractional placement surely exists: every reducer on the one host that
   * would finish them all first, the other hosts keeping only their pinned bytes.
   */
  private static double upperBound(
      double[] work, boolean[] eligible, double[] loads, NetworkProfile net) {
    double total = 0;
    for (double w : work) {
      total += w;
    }
    double alone = Double.POSITIVE_INFINITY;
    double pinned = net.now();
    for (int j = 0; j < eligible.length; j++) {
      if (eligible[j]) {
        alone = Math.min(alone, net.in(j).timeToCarry(loads[j] + total));
        pinned = Math.max(pinned, net.in(j).timeToCarry(loads[j]));
      }
    }
    double deadline = Math.max(alone, pinned);
    // Slightly above, so that the bisection's first test passes despite rounding.
    return deadline == Double.POSITIVE_INFINITY ? deadline : deadline * (1 + 1e-9) + 1e-12;
  }
}
