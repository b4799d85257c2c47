/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Algorithm 2 on the paper's tight instance, hand-built graphs, and inputs that are not basic. */
class PseudoForestRoundingTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void theoremSixRoundingReachesTwoMMinusOneT() {
    double t = 2;
    for (int m = 2; m <= 6; m++) {
      int reducers = m * (m - 1) + 1;
      double[][] time = new double[reducers][m];
      double[][] x = new double[reducers][m];
      for (int n = 0; n < reducers; n++) {
        boolean last = n == reducers - 1;
        Arrays.fill(time[n], last ? m * t : t);
        if (last) {
          Arrays.fill(x[n], 1.0 / m);
        } else {
          x[n][n % m] = 1;
        }
      }
      MakespanProblem p = new MakespanProblem(time, new double[m]);
      int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(m * t, x));
      double makespan = p.makespan(hostOf);
      double opt = m * t;
      System.out.printf(
          "Theorem 6, M=%d: rounded makespan %.1f = (2M-1)T = %.1f, OPT M*T = %.1f, ratio %.4f"
              + " = (2M-1)/M%n",
          m, makespan, (2 * m - 1) * t, opt, makespan / opt);
      assertEquals((2 * m - 1) * t, makespan);
      assertEquals((2.0 * m - 1) / m, makespan / opt, 1e-15);
    }
  }

  @Test
  void unsplitReducersStayAndACycleGivesDistinctHosts() {
    // Reducers 0 and 1 form the cycle r0-h0-r1-h1; reducer 2 sits wholly on host 2.
    MakespanProblem p = new MakespanProblem(filled(3, 3, 1), new double[3]);
    double[][] x = {{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}};
    int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(1, x));
    assertEquals(2, hostOf[2]);
    assertNotEquals(hostOf[0], hostOf[1]);
    assertTrue(hostOf[0] < 2 && hostOf[1] < 2);
  }

  @Test
  void treesHangingOffACycleUseNoCycleHost() {
    // Cycle r0-h0-r1-h1, then r2 joins h1 and h2, r3 joins h2 and h3: one cycle, 8 nodes, 8
    // edges. After the cycle goes, r2 is a reducer leaf: r2 -> h2, r3 -> h3.
    MakespanProblem p = new MakespanProblem(filled(4, 4, 1), new double[4]);
    double[][] x = {
      {0.6, 0.4, 0, 0}, {0.4, 0.6, 0, 0}, {0, 0.3, 0.7, 0}, {0, 0, 0.2, 0.8},
    };
    int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(1, x));
    assertEquals(0, hostOf[0]);
    assertEquals(1, hostOf[1]);
    assertEquals(2, hostOf[2]);
    assertEquals(3, hostOf[3]);
  }

  @Test
  void aTreeRootedAtAReducerSendsEachReducerToItsLargestChild() {
    // Path h0 - r0 - h1 - r1 - h2, no reducer leaf: root r0 takes its larger child h1 (0.7),
    // so r1, whose parent is h1, takes its child h2.
    MakespanProblem p = new MakespanProblem(filled(2, 3, 1), new double[3]);
    double[][] x = {{0.3, 0.7, 0}, {0, 0.9, 0.1}};
    int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(1, x));
    assertArrayEquals(new int[] {1, 2}, hostOf);
  }

  @Test
  void aReducerWithNoFractionGoesToItsFastestAllowedHost() {
    MakespanProblem p = new MakespanProblem(new double[][] {{INF, 5, 3}}, new double[3]);
    int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(3, new double[1][3]));
    assertArrayEquals(new int[] {2}, hostOf);
  }

  @Test
  void fractionsOnForbiddenPairsAreIgnored() {
    MakespanProblem p = new MakespanProblem(new double[][] {{INF, 1}}, new double[2]);
    double[][] x = {{0.9, 0.1}};
    assertArrayEquals(new int[] {1}, PseudoForestRounding.round(p, new FractionalPlacement(1, x)));
  }

  @Test
  void nonBasicInputsStillGetAValidDeterministicPlacement() {
    Random random = new Random(7);
    for (int i = 0; i < 500; i++) {
      int n = 1 + random.nextInt(12);
      int m = 1 + random.nextInt(6);
      double[][] time = new double[n][m];
      double[][] x = new double[n][m];
      for (int r = 0; r < n; r++) {
        double sum = 0;
        for (int j = 0; j < m; j++) {
          time[r][j] = random.nextDouble() < 0.2 ? INF : 1 + random.nextDouble();
          x[r][j] = random.nextDouble() < 0.4 ? 0 : random.nextDouble();
          sum += x[r][j];
        }
        time[r][random.nextInt(m)] = 1;
        for (int j = 0; j < m && sum > 0; j++) {
          x[r][j] /= sum;
        }
      }
      MakespanProblem p = new MakespanProblem(time, new double[m]);
      FractionalPlacement fp = new FractionalPlacement(2, x);
      int[] hostOf = PseudoForestRounding.round(p, fp);
      for (int r = 0; r < n; r++) {
        assertTrue(time[r][hostOf[r]] < INF, "instance " + i + ", reducer " + r);
      }
      assertArrayEquals(hostOf, PseudoForestRounding.round(p, fp), "instance " + i);
    }
  }

  @Test
  void twoCyclesInOneComponentAreBothBroken() {
    // Three reducers each split over the same two hosts: K(3,2) has two independent cycles.
    MakespanProblem p = new MakespanProblem(filled(3, 2, 1), new double[2]);
    double[][] x = {{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}};
    int[] hostOf = PseudoForestRounding.round(p, new FractionalPlacement(1.5, x));
    int[] count = new int[2];
    for (int j : hostOf) {
      count[j]++;
    }
    assertTrue(count[0] >= 1 && count[1] >= 1, Arrays.toString(hostOf));
  }

  private static double[][] filled(int reducers, int hosts, double value) {
    double[][] time = new double[reducers][hosts];
    for (double[] row : time) {
      Arrays.fill(row, value);
    }
    return time;
  }
}
