/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PseudoForestRounding;
import org.junit.jupiter.api.Test;

/**
 * Seeded random instances of problem (5), small enough to enumerate every integral placement: the
 * relaxation (6) never exceeds the integral optimum, and Algorithm 2 rounds it to within twice its
 * value (Theorem 4) with at most one split reducer per host.
 */
class RelaxAndRoundPropertyTest {

  private static final double INF = Double.POSITIVE_INFINITY;
  private static final double TOL = 1e-9;

  @Test
  void relaxationBoundsOptimumAndRoundingStaysWithinTwice() {
    LpFractionalPlacementSolver solver = new LpFractionalPlacementSolver();
    Random random = new Random(20240607);
    int instances = 300;
    double worstOverOpt = 1;
    double worstOverAlpha = 0;
    for (int i = 0; i < instances; i++) {
      MakespanProblem p = randomProblem(random, i % 2 == 0);
      double opt = optimum(p);
      FractionalPlacement fp = solver.solve(p);
      LpFractionalPlacementSolverTest.assertValid(p, fp);
      int[] hostOf = PseudoForestRounding.round(p, fp);
      double rounded = p.makespan(hostOf);
      String where =
          "instance " + i + ": OPT " + opt + ", alpha " + fp.alpha() + ", rounded " + rounded;

      assertTrue(fp.alpha() <= opt + TOL, where);
      assertTrue(rounded <= 2 * fp.alpha() + TOL, where);
      assertTrue(rounded >= opt - TOL, where);
      assertOneSplitReducerPerHost(p, fp, hostOf, where);
      assertTrue( // Lemma 2: a basic solution has at most N + M non-zero fractions
          nonZeros(fp) <= p.reducers() + p.hosts(), where + ": " + nonZeros(fp) + " non-zeros");
      worstOverOpt = Math.max(worstOverOpt, rounded / opt);
      worstOverAlpha = Math.max(worstOverAlpha, rounded / fp.alpha());
    }
    System.out.printf(
        "relax and round, %d instances: worst rounded/OPT %.4f, worst rounded/alpha %.4f%n",
        instances, worstOverOpt, worstOverAlpha);
  }

  private static void assertOneSplitReducerPerHost(
      MakespanProblem p, FractionalPlacement fp, int[] hostOf, String where) {
    int[] split = new int[p.hosts()];
    for (int n = 0; n < p.reducers(); n++) {
      int j = hostOf[n];
      assertTrue(j >= 0 && j < p.hosts() && p.time()[n][j] < INF, where + ": reducer " + n);
      int edges = 0;
      for (double v : fp.x()[n]) {
        edges += v > PseudoForestRounding.EDGE ? 1 : 0;
      }
      if (edges > 1) {
        split[j]++;
        assertTrue(split[j] <= 1, where + ": host " + j + " got two split reducers");
      }
    }
  }

  static int nonZeros(FractionalPlacement fp) {
    int count = 0;
    for (double[] row : fp.x()) {
      for (double v : row) {
        count += v > 0 ? 1 : 0;
      }
    }
    return count;
  }

  /** Up to 8 reducers x 5 hosts, related or unrelated, with forbidden pairs and initial loads. */
  static MakespanProblem randomProblem(Random random, boolean related) {
    int n = 1 + random.nextInt(8);
    int m = 1 + random.nextInt(5);
    double[] speed = new double[m];
    for (int j = 0; j < m; j++) {
      speed[j] = 0.5 + 3.5 * random.nextDouble();
    }
    double[][] time = new double[n][m];
    for (int r = 0; r < n; r++) {
      double work = 0.5 + 9.5 * random.nextDouble();
      for (int j = 0; j < m; j++) {
        time[r][j] = related ? work / speed[j] : 0.1 + 10 * random.nextDouble();
        if (random.nextDouble() < 0.25) {
          time[r][j] = INF;
        }
      }
      int keep = random.nextInt(m);
      time[r][keep] = related ? work / speed[keep] : 0.1 + 10 * random.nextDouble();
    }
    double[] initial = new double[m];
    for (int j = 0; j < m; j++) {
      initial[j] = random.nextBoolean() ? 5 * random.nextDouble() : 0;
    }
    return new MakespanProblem(time, initial);
  }

  /** Optimum of (5) by depth-first enumeration, pruned by the best makespan found so far. */
  static double optimum(MakespanProblem p) {
    double[] best = {INF};
    enumerate(p, 0, new int[p.reducers()], p.initialLoad().clone(), best);
    return best[0];
  }

  private static void enumerate(
      MakespanProblem p, int n, int[] hostOf, double[] load, double[] best) {
    if (n == p.reducers()) {
      best[0] = Math.min(best[0], p.makespan(hostOf));
      return;
    }
    for (int j = 0; j < p.hosts(); j++) {
      double t = p.time()[n][j];
      if (t < INF && load[j] + t < best[0]) {
        hostOf[n] = j;
        load[j] += t;
        enumerate(p, n + 1, hostOf, load, best);
        load[j] -= t;
      }
    }
  }
}
