/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;

/**
 * The default planner: Algorithm 2 (relaxation (6) solved combinatorially and rounded) on the
 * bandwidth as it frees up over time, beside list scheduling and the local-reducer rule; the
 * candidate with the earliest estimated completion wins. Knowing when each host frees up lets a
 * coflow wait for a fast host instead of taking a slow one now, which is how it reaches the optimum
 * of the paper's Fig. 1 (average CCT 2.25 s). Where slots in use free up soon (a live cluster),
 * each method places both over them and over the slots free now only, and the estimate, which
 * counts the wait for a slot, chooses. On small coflows the plan of the coflow served next, and one
 * about to lose its turn, is then polished by {@link LocalSearch}, which also sees the senders'
 * links.
 */
public final class RpcPlanner implements Planner {

  private final PlacementMethod poured = new PouredPlacement();
  private final PlacementMethod greedy = new GreedyPlacement();
  private final PlacementMethod local = SlotAwarePlacer.localFirst(greedy);
  private final boolean waves;

  /**
   * {@code waves}: a reducer may be left for a later wave where only slow hosts have slots, as in a
   * run that places each reducer when it starts; false where every reducer must get a host now (the
   * placement of a stage that the cluster starts).
   */
  public RpcPlanner(boolean waves) {
    this.waves = waves;
  }

  @Override
  public CoflowPlan plan(CoflowDemand d, NetworkProfile net) {
    if (d.allPinned()) { // every method keeps pinned reducers: one evaluation says it all
      return PlanEvaluator.evaluatePinned(d, net);
    }
    // Without a local choice the local-reducer rule places as list scheduling does.
    List<PlacementMethod> methods =
        SlotAwarePlacer.hasLocalChoice(d, net)
            ? List.of(poured, greedy, local)
            : List.of(poured, greedy);
    CoflowPlan best = null;
    for (PlacementMethod method : methods) {
      int[] placed = SlotAwarePlacer.place(d, net, method);
      best = better(best, PlanEvaluator.evaluate(d, placed, net));
      if (waves && net.slotsLimited()) {
        int[] kept = SlotAwarePlacer.placeKeepingRule(d, net, method);
        if (!Arrays.equals(kept, placed)) { // every reducer had an allowed host: nothing new
          best = better(best, PlanEvaluator.evaluate(d, kept, net));
        }
      }
    }
    if (net.anySlotFreeingLater()) { // the methods do not see when slots free: try without them
      for (PlacementMethod method : methods) {
        int[] now = SlotAwarePlacer.placeNow(d, net, method);
        if (now != null) {
          best = better(best, PlanEvaluator.evaluate(d, now, net));
        }
      }
    }
    return best;
  }

  @Override
  public CoflowPlan replan(CoflowPlan previous, int since, NetworkProfile net) {
    return previous.demand().allPinned()
        ? PlanEvaluator.reevaluatePinned(previous, since, net)
        : plan(previous.demand(), net);
  }

  @Override
  public CoflowPlan refine(CoflowPlan plan, NetworkProfile net) {
    return LocalSearch.improve(plan.demand(), plan, net);
  }

  private static CoflowPlan better(CoflowPlan a, CoflowPlan b) {
    return a == null || b.finish() < a.finish() * (1 - 1e-12) ? b : a;
  }
}
