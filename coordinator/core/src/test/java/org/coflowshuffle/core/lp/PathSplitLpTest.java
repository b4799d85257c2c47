/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.FatTree;
import org.coflowshuffle.core.model.Host;
import org.junit.jupiter.api.Test;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

class PathSplitLpTest {

  /** LP (4) exactly as the paper writes it: a row per link, a variable per flow and path. */
  private static double lp4(double[] bytes, int[][][] paths, double[] free) {
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable alpha = model.addVariable("alpha").lower(0).weight(1);
    Expression[] link = new Expression[free.length];
    for (int l = 0; l < free.length; l++) {
      link[l] = model.addExpression("l" + l).upper(free[l]);
    }
    for (int j = 0; j < bytes.length; j++) {
      Expression all = model.addExpression("f" + j).level(0);
      all.set(alpha, -1);
      for (int k = 0; k < paths[j].length; k++) {
        Variable m = model.addVariable("m" + j + "_" + k).lower(0);
        all.set(m, 1);
        for (int l : paths[j][k]) {
          link[l].add(m, bytes[j]);
        }
      }
    }
    Optimisation.Result r = model.maximise();
    assertEquals(Optimisation.State.OPTIMAL, r.getState());
    return r.doubleValue(0);
  }

  @Test
  void dropsOnlyRowsThatCannotBindOnAFatTreeUnderLoad() {
    // Fat-tree k=4 whose links are partly taken: some inner links bind, the hosts' links cap alpha,
    // most rows never bind. The presolved LP must keep the optimum and give a feasible split.
    Fabric fabric = FatTree.of(4, 10);
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < fabric.hosts(); j++) {
      hosts.add(Host.of("h" + j, 10, 10));
    }
    Random random = new Random(3);
    PathSplitLp lp = new PathSplitLp();
    for (int trial = 0; trial < 60; trial++) {
      double[] free = fabric.capacities(hosts);
      for (int l = 0; l < free.length; l++) {
        free[l] *= random.nextDouble() < 0.3 ? random.nextDouble() : 1;
      }
      int flows = 1 + random.nextInt(12);
      double[] bytes = new double[flows];
      int[][][] paths = new int[flows][][];
      for (int j = 0; j < flows; j++) {
        int src = random.nextInt(fabric.hosts());
        int dst = (src + 1 + random.nextInt(fabric.hosts() - 1)) % fabric.hosts();
        bytes[j] = 1 + 20 * random.nextDouble();
        paths[j] = fabric.paths(src, dst);
      }
      PathSplitLp.Split split = lp.solve(bytes, paths, free);
      double full = lp4(bytes, paths, free);
      assertEquals(full, split.alpha(), 1e-7 * Math.max(1, full), "trial " + trial);
      double[] load = new double[free.length];
      for (int j = 0; j < flows; j++) {
        double sum = 0;
        for (int k = 0; k < paths[j].length; k++) {
          assertTrue(split.share()[j][k] >= -1e-9, "trial " + trial);
          sum += split.share()[j][k];
          for (int l : paths[j][k]) {
            load[l] += bytes[j] * split.share()[j][k];
          }
        }
        assertEquals(split.alpha(), sum, 1e-7 * Math.max(1, sum), "trial " + trial + " flow " + j);
      }
      for (int l = 0; l < free.length; l++) {
        assertTrue(load[l] <= free[l] * (1 + 1e-7) + 1e-9, "trial " + trial + " link " + l);
      }
    }
  }
}
