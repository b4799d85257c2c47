/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.lp.LpFractionalPlacementSolver;
import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PseudoForestRounding;
import org.junit.jupiter.api.Test;

/**
 * The relaxation (6) without an LP: the same optimum as the LP on related machines, a solution that
 * Algorithm 2 may round (rows summing to 1, fractions only where (6) allows them, no host over the
 * optimum, at most N + M fractions, a forest), and the LP for anything else.
 */
class RelatedMachinesSolverTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void agreesWithTheLpOnRelatedMachines() {
    LpFractionalPlacementSolver lp = new LpFractionalPlacementSolver();
    RelatedMachinesSolver related = new RelatedMachinesSolver(p -> lp.solve(p));
    Random rnd = new Random(11);
    for (int trial = 0; trial < 300; trial++) {
      MakespanProblem p = related(rnd);
      FractionalPlacement exact = lp.solve(p);
      FractionalPlacement fp = related.solve(p);
      String where = "trial " + trial;
      assertEquals(exact.alpha(), fp.alpha(), 1e-7 * Math.max(1, exact.alpha()), where);
      assertSolves(p, fp, where);
      int[] hostOf = PseudoForestRounding.round(p, fp);
      assertTrue(p.makespan(hostOf) <= 2 * fp.alpha() * (1 + 1e-9), where + ": rounded over 2x");
    }
  }

  @Test
  void leavesAnyOtherProblemToTheLp() {
    MakespanProblem unrelated =
        new MakespanProblem(new double[][] {{1, 2}, {2, 1}}, new double[] {0, 0});
    FractionalPlacement marker = new FractionalPlacement(42, new double[][] {{1, 0}, {0, 1}});
    assertSame(marker, new RelatedMachinesSolver(p -> marker).solve(unrelated));
  }

  /** Row sums, (6)'s pairs, loads within alpha, Lemma 2's count and no cycle in G(x). */
  private static void assertSolves(MakespanProblem p, FractionalPlacement fp, String where) {
    double[] load = p.initialLoad().clone();
    int nonZeros = 0;
    List<int[]> edges = new ArrayList<>();
    for (int n = 0; n < p.reducers(); n++) {
      double sum = 0;
      for (int j = 0; j < p.hosts(); j++) {
        double x = fp.x()[n][j];
        sum += x;
        if (x > 0) {
          nonZeros++;
          edges.add(new int[] {n, j});
          assertTrue(
              p.time()[n][j] <= fp.alpha() * (1 + 1e-8) + 1e-9, where + ": pair outside (6)");
          load[j] += x * p.time()[n][j];
        }
      }
      assertEquals(1, sum, 1e-9, where + ": row " + n);
    }
    for (int j = 0; j < p.hosts(); j++) {
      if (load[j] > p.initialLoad()[j]) {
        assertTrue(load[j] <= fp.alpha() * (1 + 1e-8), where + ": host " + j + " over");
      }
    }
    assertTrue(nonZeros <= p.reducers() + p.hosts(), where + ": " + nonZeros + " fractions");
    // A forest: union-find over reducer and host nodes meets no edge closing a cycle.
    int[] parent = new int[p.reducers() + p.hosts()];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    for (int[] e : edges) {
      int a = find(parent, e[0]);
      int b = find(parent, p.reducers() + e[1]);
      assertTrue(a != b, where + ": a cycle through reducer " + e[0]);
      parent[a] = b;
    }
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      i = parent[i] = parent[parent[i]];
    }
    return i;
  }

  /** Up to 9 reducers (some with no bytes) on up to 6 hosts, some closed, some loaded. */
  private static MakespanProblem related(Random rnd) {
    int n = 1 + rnd.nextInt(9);
    int m = 1 + rnd.nextInt(6);
    double[] speed = new double[m];
    boolean[] open = new boolean[m];
    for (int j = 0; j < m; j++) {
      speed[j] = Math.pow(10, 2 * rnd.nextDouble());
      open[j] = j == 0 || rnd.nextInt(5) > 0;
    }
    double[][] time = new double[n][m];
    for (int r = 0; r < n; r++) {
      double w = rnd.nextInt(6) == 0 ? 0 : Math.pow(10, 2 * rnd.nextDouble());
      for (int j = 0; j < m; j++) {
        time[r][j] = open[j] ? w / speed[j] : INF;
      }
    }
    double[] initial = new double[m];
    for (int j = 0; j < m; j++) {
      initial[j] = open[j] && rnd.nextBoolean() ? 3 * rnd.nextDouble() : 0;
    }
    return new MakespanProblem(time, initial);
  }
}
