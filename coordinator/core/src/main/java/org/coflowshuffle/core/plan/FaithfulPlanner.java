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
 * The paper as written (scheme {@code rpc-faithful}): placement by LP (6) and Algorithm 2 on
 * constant bandwidths, tried for section IV-C's two extreme cases: the bandwidth free now (the
 * coflow starts at once on what is left) and the whole bandwidth (the coflow waits for the ones
 * before it). Each is scored with the water-filling estimate and the earlier one is kept. The
 * local-reducer rule of IV-D comes first when senders may host reducers.
 */
public final class FaithfulPlanner implements Planner {

  private final FractionalPlacementSolver solver;
  private final PlacementMethod fallback = new GreedyPlacement();

  public FaithfulPlanner(FractionalPlacementSolver solver) {
    this.solver = solver;
  }

  @Override
  public CoflowPlan plan(CoflowDemand d, NetworkProfile net) {
    int m = net.hostCount();
    double[] freeNow = new double[m];
    double[] whole = new double[m];
    for (int j = 0; j < m; j++) {
      freeNow[j] = net.in(j).rateNow();
      whole[j] = net.hosts().get(j).inBytesPerSec();
    }
    boolean local = SlotAwarePlacer.hasLocalChoice(d, net);
    CoflowPlan best = null;
    for (double[] bandwidth : new double[][] {freeNow, whole}) {
      PlacementMethod alg2 = algorithm2(bandwidth);
      PlacementMethod method = local ? SlotAwarePlacer.localFirst(alg2) : alg2;
      CoflowPlan p = PlanEvaluator.evaluate(d, SlotAwarePlacer.place(d, net, method), net);
      if (best == null || p.finish() < best.finish()) {
        best = p;
      }
    }
    return best;
  }

  /** Problem (5) with e_nj = w_n / b_j on the given bandwidths, solved by (6) and Algorithm 2. */
  private PlacementMethod algorithm2(double[] bandwidth) {
    return (d, reducers, eligible, loads, net, hostOf) -> {
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
        // No host has bandwidth now for some reducer, or the solver failed: list scheduling.
        fallback.place(d, reducers, eligible, loads, net, hostOf);
      }
    };
  }
}
