/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.coflowshuffle.core.lp.LpFractionalPlacementSolver;

/**
 * The default planner: Algorithm 2 (relaxation (6) solved combinatorially and rounded) on the
 * bandwidth as it frees up over time, beside list scheduling and the local-reducer rule; the
 * candidate with the earliest estimated completion wins. Knowing when each host frees up lets a
 * coflow wait for a fast host instead of taking a slow one now, in one placement where section
 * IV-C's two constant cases take two. Where slots in use free up soon (a live cluster), each method
 * places both over them and over the slots free now only, and the estimate, which counts the wait
 * for a slot, chooses. On small coflows the plan of the coflow served next, and one about to lose
 * its turn, is then polished by {@link LocalSearch}, which also sees the senders' links. Each of
 * these {@link RpcChange}s beyond the paper can be left out, to measure it.
 */
public final class RpcPlanner implements Planner {

  private final PlacementMethod poured = new PouredPlacement();
  private final PlacementMethod greedy = new GreedyPlacement();
  private final PlacementMethod local = SlotAwarePlacer.localFirst(greedy);
  private final boolean waves;
  private final boolean timed;
  private final boolean candidates;
  private final boolean rule;
  private final boolean earlyStop;

  /**
   * {@code waves}: a reducer may be left for a later wave where only slow hosts have slots, as in a
   * run that places each reducer when it starts; false where every reducer must get a host now (the
   * placement of a stage that the cluster starts).
   */
  public RpcPlanner(boolean waves) {
    this(waves, EnumSet.noneOf(RpcChange.class));
  }

  /** As {@link #RpcPlanner(boolean)} without the changes in {@code without}. */
  public RpcPlanner(boolean waves, Set<RpcChange> without) {
    this.waves = waves;
    this.timed = !without.contains(RpcChange.TIMED_PLACEMENT);
    this.candidates = !without.contains(RpcChange.CANDIDATES);
    this.rule = !without.contains(RpcChange.SLOW_HOST_RULE);
    this.earlyStop = !without.contains(RpcChange.EARLY_STOP);
  }

  @Override
  public CoflowPlan plan(CoflowDemand d, NetworkProfile net) {
    if (d.allPinned()) { // every method keeps pinned reducers: one evaluation says it all
      return PlanEvaluator.evaluatePinned(d, net);
    }
    List<PlacementMethod> methods = methods(d, net);
    CoflowPlan best = null;
    int[] last = null;
    for (PlacementMethod method : methods) {
      int[] placed = SlotAwarePlacer.place(d, net, method, rule);
      if (!Arrays.equals(placed, last)) { // the same placement as the method before: no better
        best = better(best, PlanEvaluator.evaluate(d, placed, net));
      }
      last = placed;
      if (rule && waves && net.slotsLimited()) {
        int[] kept = SlotAwarePlacer.placeKeepingRule(d, net, method);
        if (!Arrays.equals(kept, placed)) { // every reducer had an allowed host: nothing new
          best = better(best, PlanEvaluator.evaluate(d, kept, net));
        }
      }
    }
    if (rule
        && net.idle()
        && best.finish() - net.now() > 2 * (PlanEvaluator.lowerBound(d, net) - net.now())) {
      // Placed class by class, the rule's classes are rounded one after another, which Theorem 4
      // does not cover: on a network with nothing booked (the setting of the theorem), unless the
      // plan is within twice a bound no placement beats, Algorithm 2's own placement competes
      // too, so that the factor 2 holds (docs/algorithms.md). Not beyond that setting, where a
      // placement the rule forbids would let a coflow receive that the early stop counts out.
      for (PlacementMethod method : methods.subList(0, timed ? 1 : 2)) {
        best =
            better(
                best, PlanEvaluator.evaluate(d, SlotAwarePlacer.place(d, net, method, false), net));
      }
    }
    if (net.anySlotFreeingLater()) { // the methods do not see when slots free: try without them
      for (PlacementMethod method : methods) {
        int[] now = SlotAwarePlacer.placeNow(d, net, method, rule);
        if (now != null) {
          best = better(best, PlanEvaluator.evaluate(d, now, net));
        }
      }
    }
    return best;
  }

  /**
   * Algorithm 2 on the bandwidth over time (or on IV-C's two constant cases), list scheduling and
   * the local-reducer rule (or, without those candidates, the paper's local-reducer rule first).
   */
  private List<PlacementMethod> methods(CoflowDemand d, NetworkProfile net) {
    boolean localChoice = SlotAwarePlacer.hasLocalChoice(d, net);
    List<PlacementMethod> methods = new ArrayList<>();
    if (timed) {
      methods.add(poured);
    } else {
      int m = net.hostCount();
      double[] freeNow = new double[m];
      double[] whole = new double[m];
      for (int j = 0; j < m; j++) {
        freeNow[j] = net.in(j).rateNow();
        whole[j] = net.inWhole(j);
      }
      RelatedMachinesSolver solver = new RelatedMachinesSolver(new LpFractionalPlacementSolver());
      methods.add(new Algorithm2Placement(freeNow, solver));
      methods.add(new Algorithm2Placement(whole, solver));
    }
    if (!candidates) {
      methods.replaceAll(m -> localChoice ? SlotAwarePlacer.localFirst(m) : m);
    } else {
      methods.add(greedy);
      if (localChoice) { // without one, the local-reducer rule places as list scheduling does
        methods.add(local);
      }
    }
    return methods;
  }

  @Override
  public CoflowPlan replan(CoflowPlan previous, int since, NetworkProfile net) {
    return previous.demand().allPinned()
        ? PlanEvaluator.reevaluatePinned(previous, since, net)
        : plan(previous.demand(), net);
  }

  @Override
  public CoflowPlan refine(CoflowPlan plan, NetworkProfile net) {
    return candidates ? LocalSearch.improve(plan.demand(), plan, net, rule) : plan;
  }

  @Override
  public boolean mayReceiveNow(CoflowDemand d, NetworkProfile net) {
    return !earlyStop || SlotAwarePlacer.mayReceiveNow(d, net, rule);
  }

  private static CoflowPlan better(CoflowPlan a, CoflowPlan b) {
    return a == null || b.finish() < a.finish() * (1 - 1e-12) ? b : a;
  }
}
