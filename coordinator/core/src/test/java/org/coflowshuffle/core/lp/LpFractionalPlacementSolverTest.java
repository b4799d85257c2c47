/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PlacementException;
import org.junit.jupiter.api.Test;

/** Hand-built instances of relaxation (6) whose optimum is known, and Theorem 6's instance. */
class LpFractionalPlacementSolverTest {

  private static final double INF = Double.POSITIVE_INFINITY;
  private final LpFractionalPlacementSolver solver = new LpFractionalPlacementSolver();

  @Test
  void splitsWorkAcrossHostsWithInitialLoads() {
    // Total 3 + 8 over 2 hosts is 5.5; x = (2.5 on host 0, 5.5 on host 1) reaches it.
    MakespanProblem p =
        new MakespanProblem(new double[][] {{2, 2}, {2, 2}, {4, 4}}, new double[] {3, 0});
    FractionalPlacement fp = solver.solve(p);
    assertEquals(5.5, fp.alpha(), 1e-9);
    assertValid(p, fp);
  }

  @Test
  void aReducerIsNeverSplitOverHostsSlowerThanAlpha() {
    // Without the E_j / H_n restriction the LP would halve it and answer 5.
    MakespanProblem p = new MakespanProblem(new double[][] {{10, 10}}, new double[2]);
    FractionalPlacement fp = solver.solve(p);
    assertEquals(10, fp.alpha(), 1e-9);
    assertValid(p, fp);
  }

  @Test
  void relatedMachinesWithARestrictedPair() {
    // Times w/b for w = (6, 3, 3), b = (2, 1): reducer 0 takes 6 > 4 on host 1, so it sits on
    // host 0 (3); the other 6 units of work fill host 0 to 4 and host 1 to 4.
    MakespanProblem p = MakespanProblem.related(new double[] {6, 3, 3}, new double[] {2, 1});
    FractionalPlacement fp = solver.solve(p);
    assertEquals(4, fp.alpha(), 1e-9);
    assertEquals(1, fp.x()[0][0], 1e-12);
    assertValid(p, fp);
  }

  @Test
  void forbiddenPairsCarryNothing() {
    MakespanProblem p = new MakespanProblem(new double[][] {{4, INF}, {1, 1}}, new double[2]);
    FractionalPlacement fp = solver.solve(p);
    assertEquals(4, fp.alpha(), 1e-9);
    assertEquals(0, fp.x()[0][1]);
    assertValid(p, fp);
  }

  @Test
  void noReducersLeavesTheInitialLoad() {
    MakespanProblem p = new MakespanProblem(new double[0][], new double[] {1, 7});
    assertEquals(7, solver.solve(p).alpha());
  }

  @Test
  void theoremSixInstanceHasAlphaMT() {
    double t = 1.5;
    for (int m = 2; m <= 6; m++) {
      MakespanProblem p = theoremSixInstance(m, t);
      FractionalPlacement fp = solver.solve(p);
      System.out.printf(
          "Theorem 6, M=%d: %d reducers, LP (6) alpha = %.12f, M*T = %.12f%n",
          m, p.reducers(), fp.alpha(), m * t);
      assertEquals(m * t, fp.alpha(), 1e-6 * m * t);
      assertValid(p, fp);
    }
  }

  @Test
  void exhaustedTimeLimitIsAPlacementExceptionNamingTheSize() {
    MakespanProblem p = new MakespanProblem(new double[][] {{1, 2}, {2, 1}}, new double[2]);
    PlacementException e =
        assertThrows(
            PlacementException.class,
            () -> new LpFractionalPlacementSolver(Duration.ZERO).solve(p));
    assertTrue(e.getMessage().contains("2 reducers x 2 hosts"), e.getMessage());
    assertTrue(e.getMessage().contains("time limit"), e.getMessage());
  }

  @Test
  void aSolveStoppedByItsTimeLimitIsAPlacementException() {
    // 300 x 60 takes far over 1 ms: the budget runs out before the first LP or, via ojalgo's
    // time_abort, during it (state UNEXPLORED); either way the caller gets a PlacementException.
    Random random = new Random(1);
    double[][] time = new double[300][60];
    for (double[] row : time) {
      for (int j = 0; j < row.length; j++) {
        row[j] = 0.1 + 10 * random.nextDouble();
      }
    }
    MakespanProblem p = new MakespanProblem(time, new double[60]);
    PlacementException e =
        assertThrows(
            PlacementException.class,
            () -> new LpFractionalPlacementSolver(Duration.ofMillis(1)).solve(p));
    System.out.println("1 ms limit on 300 x 60: " + e.getMessage());
    assertTrue(e.getMessage().contains("300 reducers x 60 hosts"), e.getMessage());
    assertTrue(e.getMessage().contains("time limit"), e.getMessage());
  }

  @Test
  void fiftyReducersOnTwentyHostsSolveWellWithinTheLimit() {
    Random random = new Random(50_20);
    long worst = 0;
    long total = 0;
    int runs = 6;
    for (int run = 0; run < runs; run++) {
      double[][] time = new double[50][20];
      for (double[] row : time) {
        for (int j = 0; j < row.length; j++) {
          row[j] = random.nextDouble() < 0.1 ? INF : 0.1 + 10 * random.nextDouble();
        }
        row[random.nextInt(row.length)] = 0.1 + 10 * random.nextDouble();
      }
      MakespanProblem p = new MakespanProblem(time, new double[20]);
      long start = System.nanoTime();
      FractionalPlacement fp = solver.solve(p);
      long ns = System.nanoTime() - start;
      assertValid(p, fp);
      if (run > 0) { // the first run warms up the JIT
        worst = Math.max(worst, ns);
        total += ns;
      }
    }
    System.out.printf(
        "50 reducers x 20 hosts: solve() mean %.1f ms, worst %.1f ms over %d runs%n",
        total / 1e6 / (runs - 1), worst / 1e6, runs - 1);
    assertTrue(worst < LpFractionalPlacementSolver.DEFAULT_TIME_LIMIT.toNanos());
  }

  /** Theorem 6: M(M-1) reducers of time T and one of time M*T, on M identical hosts. */
  static MakespanProblem theoremSixInstance(int m, double t) {
    double[][] time = new double[m * (m - 1) + 1][m];
    for (int n = 0; n < time.length; n++) {
      Arrays.fill(time[n], n < m * (m - 1) ? t : m * t);
    }
    return new MakespanProblem(time, new double[m]);
  }

  /** Rows sum to 1, no negative or forbidden fraction, every host's load within alpha. */
  static void assertValid(MakespanProblem p, FractionalPlacement fp) {
    double[] load = p.initialLoad().clone();
    for (int n = 0; n < p.reducers(); n++) {
      double sum = 0;
      for (int j = 0; j < p.hosts(); j++) {
        double v = fp.x()[n][j];
        assertTrue(v >= 0, "x[" + n + "][" + j + "] = " + v);
        if (v > 0) {
          assertTrue(p.time()[n][j] <= fp.alpha(), "pair " + n + "," + j + " above alpha");
          load[j] += v * p.time()[n][j];
        }
        sum += v;
      }
      assertEquals(1, sum, 1e-12, "row " + n);
    }
    for (int j = 0; j < p.hosts(); j++) {
      assertTrue(load[j] <= fp.alpha() * (1 + 1e-12) + 1e-12, "host " + j + " load " + load[j]);
    }
  }
}
