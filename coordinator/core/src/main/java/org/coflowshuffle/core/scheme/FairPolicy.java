/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.PairwisePolicy;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * The paper's baseline: random placement and per-flow max-min fair sharing of every link, blind to
 * coflows, as TCP would roughly give ({@link WeightedFilling} with one unit of weight per flow).
 * Flows between the same two hosts get the same rate, so it also decides by host pair ({@link
 * PairwisePolicy}).
 */
final class FairPolicy implements PairwisePolicy {

  private final ArrivalPlacement placement;
  private WeightedFilling filling;

  FairPolicy(ArrivalPlacement placement) {
    this.placement = placement;
  }

  @Override
  public String name() {
    return "fair";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    filling = WeightedFilling.forHosts(filling, view);
    int[][] pairOf = new int[active.size()][];
    for (int i = 0; i < active.size(); i++) {
      pairOf[i] = filling.add(active.get(i), hostOf[i], k -> true, Weight.FLOWS);
    }
    double[] perFlow = filling.fill(Bandwidth.outgoing(view), Bandwidth.incoming(view));
    double[][] rates = new double[active.size()][];
    for (int i = 0; i < active.size(); i++) {
      rates[i] = WeightedFilling.rates(active.get(i), pairOf[i], perFlow, Weight.FLOWS);
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }

  @Override
  public int[][] placements(ClusterView arrivals) {
    return placement.placements(arrivals);
  }

  @Override
  public double[] pairRates(List<Host> hosts, int[] from, int[] to, int[] flows) {
    filling = WeightedFilling.forHosts(filling, hosts.size());
    int[] pair = new int[from.length];
    for (int i = 0; i < pair.length; i++) {
      pair[i] = filling.add(from[i], to[i], flows[i]);
    }
    double[] perFlow = filling.fill(Bandwidth.outgoing(hosts), Bandwidth.incoming(hosts));
    double[] rates = new double[pair.length];
    for (int i = 0; i < rates.length; i++) {
      rates[i] = perFlow[pair[i]];
    }
    return rates;
  }
}
