/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * Orchestra (SIGCOMM'11, section 6.3 and its inter-transfer controller): Weighted Shuffle
 * Scheduling inside each coflow, that is max-min fair rates weighted by each flow's remaining
 * bytes, so that a shuffle's flows end together while at least one of its links stays full (the
 * paper shows this optimal for one shuffle on one path per host pair). Between coflows, the
 * controller's two policies:
 *
 * <ul>
 *   <li>{@code wss}: first-in first-out, its default: coflows in arrival order, each filled on the
 *       bandwidth the earlier ones left, which makes it work-conserving;
 *   <li>{@code wss-priority}: its priority mode, as weighted sharing: all coflows are filled
 *       together, each with its {@linkplain org.coflowshuffle.core.model.Coflow#weight weight}
 *       spread over its flows by their bytes, so where two coflows meet they share in proportion to
 *       their weights (equal weights: fair sharing between coflows; a very large weight: strict
 *       priority).
 * </ul>
 *
 * Placement is random at arrival: Orchestra does not choose where reducers run.
 */
final class WssPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;
  private final boolean priority;
  private WeightedFilling filling;

  /**
   * @param priority weighted sharing between coflows instead of first-in first-out
   */
  WssPolicy(ArrivalPlacement placement, boolean priority) {
    this.placement = placement;
    this.priority = priority;
  }

  @Override
  public String name() {
    return priority ? "wss-priority" : "wss";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    filling = WeightedFilling.forHosts(filling, view);
    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    double[][] rates = new double[active.size()][];
    if (!priority) {
      for (int i = 0; i < active.size(); i++) { // the view lists coflows in arrival order
        rates[i] = filling.fill(active.get(i), hostOf[i], k -> true, Weight.BYTES, outLeft, inLeft);
      }
      return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
    }
    int[][] pairOf = new int[active.size()][];
    double[] scale = new double[active.size()];
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      double bytes = 0; // over the network: the flows the filling gets
      for (int k = 0; k < a.remaining().length; k++) {
        bytes += a.crossesNetwork(k, hostOf[i]) ? a.remaining()[k] : 0;
      }
      scale[i] = bytes > 0 ? a.coflow().weight() / bytes : 0;
      pairOf[i] = filling.add(a, hostOf[i], k -> true, Weight.BYTES, scale[i]);
    }
    double[] perWeight = filling.fill(outLeft, inLeft);
    for (int i = 0; i < active.size(); i++) {
      rates[i] = WeightedFilling.rates(active.get(i), pairOf[i], perWeight, Weight.BYTES, scale[i]);
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }
}
