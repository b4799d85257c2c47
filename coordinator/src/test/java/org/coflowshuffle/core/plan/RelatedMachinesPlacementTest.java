package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.coflowshuffle.core.lp.LpFractionalPlacementSolver;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.junit.jupiter.api.Test;

/**
 * The combinatorial solution of (6) for related machines reaches the same alpha as the LP, and its
 * rounding keeps Algorithm 2's factor 2.
 */
class RelatedMachinesPlacementTest {

  @Test
  void sameAlphaAsTheLpOnRandomInstances() {
    Random rnd = new Random(42);
    LpFractionalPlacementSolver lp = new LpFractionalPlacementSolver();
    double worstGap = 0;
    double worstRatio = 0;
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + rnd.nextInt(12);
      int m = 1 + rnd.nextInt(6);
      double[] work = new double[n];
      double[] speed = new double[m];
      for (int i = 0; i < n; i++) {
        work[i] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextDouble() * 100;
      }
      for (int j = 0; j < m; j++) {
        speed[j] = 0.1 + rnd.nextDouble() * 10;
      }
      boolean[] eligible = new boolean[m];
      Arrays.fill(eligible, true);
      double upper = Arrays.stream(work).sum() / Arrays.stream(speed).min().getAsDouble() + 1;
      RelatedMachinesPlacement.Result poured =
          RelatedMachinesPlacement.solve(
              work, HostCapacity.constant(speed, new double[m]), eligible, 0, upper);
      MakespanProblem problem = MakespanProblem.related(work, speed);
      double alphaLp = lp.solve(problem).alpha();
      assertEquals(alphaLp, poured.alpha(), 1e-6 * Math.max(1, alphaLp), "trial " + trial);
      double rounded = problem.makespan(poured.hostOf());
      assertTrue(rounded <= 2 * poured.alpha() * (1 + 1e-9), "rounded " + rounded);
      worstGap = Math.max(worstGap, Math.abs(alphaLp - poured.alpha()) / Math.max(1e-12, alphaLp));
      worstRatio = Math.max(worstRatio, rounded / Math.max(1e-12, poured.alpha()));
    }
    System.out.printf(
        "related machines, 200 instances: worst |alpha_lp - alpha_poured|/alpha %.2e,"
            + " worst rounded/alpha %.4f%n",
        worstGap, worstRatio);
  }

  @Test
  void theoremSixTightInstanceRoundsWithinTwo() {
    for (int m = 2; m <= 6; m++) {
      int n = m * (m - 1) + 1;
      double[] work = new double[n];
      Arrays.fill(work, 1.0);
      work[n - 1] = m;
      double[] speed = new double[m];
      Arrays.fill(speed, 1.0);
      boolean[] eligible = new boolean[m];
      Arrays.fill(eligible, true);
      RelatedMachinesPlacement.Result r =
          RelatedMachinesPlacement.solve(
              work, HostCapacity.constant(speed, new double[m]), eligible, 0, 2.0 * n);
      double makespan = MakespanProblem.related(work, speed).makespan(r.hostOf());
      assertEquals(m, r.alpha(), 1e-9);
      assertTrue(makespan <= (2 * m - 1) + 1e-9, "M=" + m + " makespan " + makespan);
      System.out.printf(
          "Theorem 6, M=%d: alpha %.3f, poured+rounded makespan %.3f%n", m, r.alpha(), makespan);
    }
  }
}
