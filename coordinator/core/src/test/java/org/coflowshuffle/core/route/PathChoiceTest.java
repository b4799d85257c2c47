/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.lp.PathSplitLp;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.FatTree;
import org.coflowshuffle.core.model.Host;
import org.junit.jupiter.api.Test;

class PathChoiceTest {

  @Test
  void widestBreaksTiesOnTheLinksThatDifferNotOnTheSharedBottleneck() {
    // Both paths are limited to 1 by link 0, which they share; the second has more left beyond.
    double[] free = {1, 3, 5};
    assertEquals(1, PathChoice.widest(new int[][] {{0, 1}, {0, 2}}, free));
    assertEquals(0, PathChoice.widest(new int[][] {{0, 2}, {0, 1}}, free));
  }

  @Test
  void leastLoadedLooksPastTheSharedLinks() {
    // Link 0 is shared and loaded the most; link 1 carries 2 bytes already, link 2 nothing.
    double[] load = {10, 2, 0};
    double[] capacity = {1, 1, 1};
    assertEquals(1, PathChoice.leastLoaded(new int[][] {{0, 1}, {0, 2}}, 1, load, capacity));
    assertEquals(0, PathChoice.leastLoaded(new int[][] {{0, 2}, {0, 1}}, 1, load, capacity));
  }

  @Test
  void minimumCctSpreadsHostBoundFlowsOverTheCoreSwitches() {
    // Fat-tree k=4: the four hosts of pod 0 each send to one host of pod 1. Each flow has four
    // paths, one per core switch, and the hosts' links bind, so LP (4) is indifferent between them.
    Fabric fabric = FatTree.of(4, 1);
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < fabric.hosts(); j++) {
      hosts.add(Host.of("h" + j, 1, 1));
    }
    double[] free = fabric.capacities(hosts);
    int flows = 4;
    double[] bytes = new double[flows];
    int[][][] candidates = new int[flows][][];
    for (int j = 0; j < flows; j++) {
      bytes[j] = 1;
      candidates[j] = fabric.paths(j, 4 + j);
    }
    MinimumCct.Routed r = new MinimumCct(new PathSplitLp()).route(bytes, candidates, free);
    assertEquals(1, r.alpha(), 1e-12); // every flow at its host link's full speed
    int[] flowsOn = new int[free.length];
    for (int[] path : MinimumCct.chosen(candidates, r.path())) {
      for (int l : path) {
        flowsOn[l]++;
      }
    }
    for (int l = 2 * fabric.hosts(); l < free.length; l++) {
      assertTrue(flowsOn[l] <= 1, "inner link " + l + " carries " + flowsOn[l] + " flows");
    }
  }
}
