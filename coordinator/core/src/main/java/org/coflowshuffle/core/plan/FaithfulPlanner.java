/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import org.coflowshuffle.core.placement.FractionalPlacementSolver;

/**
 * The paper as written (scheme {@code rpc-faithful}): placement by LP (6) and Algorithm 2 on
 * constant bandwidths, tried for section IV-C's two extreme cases: the bandwidth free now (the
 * coflow starts at once on what is left) and the whole bandwidth (the coflow waits for the ones
 * before it). Each is scored with the water-filling estimate and the earlier one is kept. The rules
 * of section IV-D hold (started reducers stay, hosts whose slots fill close, the reducers beyond
 * the slots wait for a later wave, and the local-reducer rule comes first when senders may host
 * reducers); none of this project's heuristics does ({@link SlowHostRule} among them).
 */
public final class FaithfulPlanner implements Planner {

  private final FractionalPlacementSolver solver;

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
      PlacementMethod alg2 = new Algorithm2Placement(bandwidth, solver);
      PlacementMethod method = local ? SlotAwarePlacer.localFirst(alg2) : alg2;
      CoflowPlan p = PlanEvaluator.evaluate(d, SlotAwarePlacer.place(d, net, method, false), net);
      if (best == null || p.finish() < best.finish()) {
        best = p;
      }
    }
    return best;
  }

  @Override
  public boolean mayReceiveNow(CoflowDemand d, NetworkProfile net) {
    return SlotAwarePlacer.mayReceiveNow(d, net, false);
  }
}
