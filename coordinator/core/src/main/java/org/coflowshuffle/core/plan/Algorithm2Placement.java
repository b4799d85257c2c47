/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import org.coflowshuffle.core.placement.FractionalPlacementSolver;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PlacementException;
import org.coflowshuffle.core.placement.PseudoForestRounding;

/**
 * Algorithm 2 as the paper states it: problem (5) with e_nj = w_n / b_j on constant bandwidths b_j,
 * relaxed to (6), solved, and rounded over the pseudo-forest of the solution. The reducers' pinned
 * loads count as the hosts' initial loads (section IV-D). Where no host has bandwidth for some
 * reducer, or the solver fails, list scheduling places them instead.
 */
final class Algorithm2Placement implements PlacementMethod {

  private final double[] bandwidth;
  private final FractionalPlacementSolver solver;
  private final PlacementMethod fallback = new GreedyPlacement();

  /**
   * @param bandwidth per host, the constant incoming bandwidth the placement assumes
   */
  Algorithm2Placement(double[] bandwidth, FractionalPlacementSolver solver) {
    this.bandwidth = bandwidth;
    this.solver = solver;
  }

  @Override
  public void place(
      CoflowDemand d,
      int[] reducers,
      boolean[] eligible,
      double[] loads,
      NetworkProfile net,
      int[] hostOf) {
    int m = bandwidth.length;
    double[][] time = new double[reducers.length][m];
    double[] initial = new double[m];
    for (int j = 0; j < m; j++) {
      boolean usable = eligible[j] && bandwidth[j] > 0;
      initial[j] = usable ? loads[j] / bandwidth[j] : 0;
      for (int i = 0; i < reducers.length; i++) {
        double w = d.work(reducers[i]);
        time[i][j] =
            !eligible[j]
                ? Double.POSITIVE_INFINITY
                : w == 0 ? 0 : usable ? w / bandwidth[j] : Double.POSITIVE_INFINITY;
      }
    }
    try {
      MakespanProblem problem = new MakespanProblem(time, initial);
      int[] placed = PseudoForestRounding.round(problem, solver.solve(problem));
      for (int i = 0; i < reducers.length; i++) {
        hostOf[reducers[i]] = placed[i];
      }
    } catch (IllegalArgumentException | PlacementException e) {
      // No host has bandwidth for some reducer, or the solver failed: list scheduling.
      fallback.place(d, reducers, eligible, loads, net, hostOf);
    }
  }
}
