/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

class PathRateTest {

  /** LP (2) exactly as the paper writes it, with alpha and the flows' rates as variables. */
  private static double lp2(double[] bytes, int[][] paths, double[] free) {
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable alpha = model.addVariable("alpha").lower(0).weight(1);
    Expression[] link = new Expression[free.length];
    for (int l = 0; l < free.length; l++) {
      link[l] = model.addExpression("l" + l).upper(free[l]);
    }
    for (int j = 0; j < bytes.length; j++) {
      for (int l : paths[j]) {
        link[l].add(alpha, bytes[j]);
      }
    }
    Optimisation.Result r = model.maximise();
    assertEquals(Optimisation.State.OPTIMAL, r.getState());
    return r.doubleValue(0);
  }

  @Test
  void closedFormMatchesTheLpSolvedByOjalgo() {
    Random random = new Random(7);
    for (int trial = 0; trial < 200; trial++) {
      int links = 3 + random.nextInt(7);
      double[] free = new double[links];
      for (int l = 0; l < links; l++) {
        free[l] = 0.5 + 10 * random.nextDouble();
      }
      int flows = 1 + random.nextInt(6);
      double[] bytes = new double[flows];
      int[][] paths = new int[flows][];
      for (int j = 0; j < flows; j++) {
        bytes[j] = 0.1 + 5 * random.nextDouble();
        paths[j] = random.ints(0, links).distinct().limit(1 + random.nextInt(3)).toArray();
      }
      double closed = PathRate.alpha(bytes, paths, free);
      assertEquals(lp2(bytes, paths, free), closed, 1e-7 * closed, "trial " + trial);
    }
  }

  @Test
  void aTakeThatLeavesOnlyARoundingErrorLeavesNothing() {
    // 0.7 then 0.3 taken from 1 leaves 5.6e-17 in doubles; a solver must see the link as full.
    double[] free = {1, 2};
    PathRate.take(new int[] {0, 1}, 0.7, free);
    PathRate.take(new int[] {0, 1}, 0.3, free);
    assertEquals(0, free[0]);
    assertEquals(1, free[1], 1e-15);
  }

  @Test
  void fillingIsMaxMinFair() {
    // Two links of 1 and 2: A on the first, B on both, C on the second. B and A split the first,
    // C takes the rest of the second.
    double[] free = {1, 2};
    double[] rate = LinkFilling.fill(new int[][] {{0}, {0, 1}, {1}}, free);
    assertArrayEquals(new double[] {0.5, 0.5, 1.5}, rate, 1e-12);
    assertArrayEquals(new double[] {0, 0}, free, 1e-12);
  }

  @Test
  void everyFilledFlowHasALinkItCannotGrowOn() {
    Random random = new Random(11);
    for (int trial = 0; trial < 100; trial++) {
      int links = 3 + random.nextInt(6);
      double[] capacity = new double[links];
      for (int l = 0; l < links; l++) {
        capacity[l] = 1 + random.nextInt(10);
      }
      int[][] paths = new int[2 + random.nextInt(8)][];
      for (int j = 0; j < paths.length; j++) {
        paths[j] = random.ints(0, links).distinct().limit(1 + random.nextInt(3)).toArray();
      }
      double[] rate = LinkFilling.fill(paths, capacity.clone());
      double[] load = new double[links];
      for (int j = 0; j < paths.length; j++) {
        for (int l : paths[j]) {
          load[l] += rate[j];
        }
      }
      for (int l = 0; l < links; l++) {
        assertTrue(load[l] <= capacity[l] * (1 + 1e-9), "link " + l + " overfull");
      }
      for (int j = 0; j < paths.length; j++) { // max-min: a full link where j is among the fastest
        boolean bottlenecked = false;
        for (int l : paths[j]) {
          boolean full = load[l] >= capacity[l] * (1 - 1e-9);
          double fastest = 0;
          for (int i = 0; i < paths.length; i++) {
            for (int m : paths[i]) {
              if (m == l) {
                fastest = Math.max(fastest, rate[i]);
              }
            }
          }
          bottlenecked |= full && rate[j] >= fastest * (1 - 1e-9);
        }
        assertTrue(bottlenecked, "trial " + trial + ": flow " + j + " could grow");
      }
    }
  }
}
