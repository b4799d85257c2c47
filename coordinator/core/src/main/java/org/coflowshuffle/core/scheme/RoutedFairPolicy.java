/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.route.Ecmp;
import org.coflowshuffle.core.route.LinkFilling;
import org.coflowshuffle.core.route.PathChoice;

/**
 * Flows routed once, when first seen, then sharing every link max-min fairly per flow, blind to
 * coflows: the two schemes the Rapier paper compares against that do not schedule. {@code ecmp}
 * hashes each flow onto a path (the paper's "baseline"); {@code balanced} puts each new flow,
 * largest first, on its {@link PathChoice#leastLoaded least loaded} path, counting the bytes left
 * of every routed flow: the paper's "routing-only".
 */
final class RoutedFairPolicy implements SchedulingPolicy {

  private final String name;
  private final ArrivalPlacement placement;
  private final boolean balanced;
  private final long seed;
  private final RouteBook routes = new RouteBook();

  RoutedFairPolicy(String name, ArrivalPlacement placement, boolean balanced, long seed) {
    this.name = name;
    this.placement = placement;
    this.balanced = balanced;
    this.seed = seed;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    routes.retain(active);
    Fabric fabric = view.fabric();
    int[][] hostOf = placement.placements(view);
    double[] capacity = fabric.capacities(view.hosts());
    double[] load = new double[capacity.length]; // bytes left of the flows routed over each link
    int n = active.size();
    CrossingFlows[] crossing = new CrossingFlows[n];
    int[][] path = new int[n][];
    for (int i = 0; i < n; i++) {
      crossing[i] = CrossingFlows.of(active.get(i), hostOf[i], fabric);
      path[i] = new int[crossing[i].size()];
      for (int j = 0; j < path[i].length; j++) {
        CrossingFlows c = crossing[i];
        path[i][j] = routes.path(active.get(i).index(), c.flow()[j], c.dst()[j]);
        if (path[i][j] >= 0) {
          PathChoice.addLoad(load, c.candidates()[j][path[i][j]], c.bytes()[j]);
        }
      }
    }
    List<int[]> links = new ArrayList<>();
    List<int[]> owners = new ArrayList<>(); // {coflow, crossing flow} of each entry of links
    for (int i = 0; i < n; i++) {
      CrossingFlows c = crossing[i];
      Integer[] flows = new Integer[c.size()];
      for (int j = 0; j < flows.length; j++) {
        flows[j] = j;
      }
      Arrays.sort(flows, Comparator.comparingDouble((Integer j) -> -c.bytes()[j]));
      for (int j : flows) {
        if (path[i][j] < 0) {
          path[i][j] =
              balanced
                  ? PathChoice.leastLoaded(c.candidates()[j], c.bytes()[j], load, capacity)
                  : Ecmp.pick(seed, active.get(i).index(), c.flow()[j], c.candidates()[j].length);
          routes.record(active.get(i), c.flow()[j], c.dst()[j], path[i][j]);
          PathChoice.addLoad(load, c.candidates()[j][path[i][j]], c.bytes()[j]);
        }
        links.add(c.candidates()[j][path[i][j]]);
        owners.add(new int[] {i, j});
      }
    }
    double[] filled = LinkFilling.fill(links.toArray(new int[0][]), capacity);
    double[][] rates = new double[n][];
    int[][] paths = new int[n][];
    for (int i = 0; i < n; i++) {
      rates[i] = new double[active.get(i).remaining().length];
      paths[i] = new int[rates[i].length];
    }
    for (int f = 0; f < filled.length; f++) {
      int i = owners.get(f)[0];
      int k = crossing[i].flow()[owners.get(f)[1]];
      rates[i][k] = filled[f];
      paths[i][k] = path[i][owners.get(f)[1]];
    }
    return Decision.of(hostOf, rates, paths, Double.POSITIVE_INFINITY);
  }
}
