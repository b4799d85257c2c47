/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.coflowshuffle.core.lp.PathSplitLp;
import org.junit.jupiter.api.Test;

/**
 * Theorem 1 of the Rapier paper on random instances: Algorithm 2's rate is at least 1/K of the best
 * single-path rate (found here by trying every choice of paths), and LP (4) bounds that best rate
 * from above.
 */
class RapierBoundTest {

  private final MinimumCct minimumCct = new MinimumCct(new PathSplitLp());

  @Test
  void algorithmTwoIsWithinKOfTheBestChoiceOfPaths() {
    Random random = new Random(2015);
    double worst = Double.POSITIVE_INFINITY; // least alpha_alg / alpha_max seen
    double meanRatio = 0;
    int trials = 300;
    for (int trial = 0; trial < trials; trial++) {
      int links = 4 + random.nextInt(6);
      double[] free = new double[links];
      for (int l = 0; l < links; l++) {
        free[l] = 1 + 9 * random.nextDouble();
      }
      int k = 2 + random.nextInt(3);
      int flows = 2 + random.nextInt(3);
      double[] bytes = new double[flows];
      int[][][] candidates = new int[flows][k][];
      for (int j = 0; j < flows; j++) {
        bytes[j] = 0.5 + 4 * random.nextDouble();
        for (int p = 0; p < k; p++) {
          candidates[j][p] =
              random.ints(0, links).distinct().limit(1 + random.nextInt(3)).toArray();
        }
      }
      double best = best(bytes, candidates, free, new int[flows], 0);
      MinimumCct.Routed r = minimumCct.route(bytes, candidates, free);
      assertTrue(r.upper() >= best * (1 - 1e-7), "trial " + trial + ": LP (4) below the optimum");
      assertTrue(r.alpha() <= best * (1 + 1e-9), "trial " + trial + ": above the optimum");
      assertTrue(r.alpha() >= best / k * (1 - 1e-7), "trial " + trial + ": Theorem 1 broken");
      assertEquals(
          PathRate.alpha(bytes, MinimumCct.chosen(candidates, r.path()), free), r.alpha(), 1e-12);
      worst = Math.min(worst, r.alpha() / best);
      meanRatio += r.alpha() / best / trials;
    }
    System.out.printf(
        "Rapier Theorem 1 (alpha_alg >= alpha_max / K, K = 2..4): worst alpha_alg/alpha_max %.3f,"
            + " mean %.3f over %d random instances%n",
        worst, meanRatio, trials);
  }

  /** The best rate over every choice of one path per flow. */
  private static double best(
      double[] bytes, int[][][] candidates, double[] free, int[] path, int j) {
    if (j == path.length) {
      return PathRate.alpha(bytes, MinimumCct.chosen(candidates, path), free);
    }
    double best = 0;
    for (int p = 0; p < candidates[j].length; p++) {
      path[j] = p;
      best = Math.max(best, best(bytes, candidates, free, path, j + 1));
    }
    return best;
  }

  @Test
  void aFlowWithEveryPathFullCannotMoveAndNeedsNoLp() {
    double[] free = {1, 0, 0};
    MinimumCct.Routed r =
        minimumCct.route(new double[] {1, 1}, new int[][][] {{{0}}, {{1}, {2}}}, free);
    assertEquals(0, r.alpha());
  }
}
