/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

  /**
   * {@link RelatedMachinesPlacement#place} stops its bisection within a millionth of the time to
   * the least deadline, where {@code solve} goes on to the last bits of the clock: on instances
   * whose capacities start late on the clock (a coflow planned an hour into a run, its hosts on
   * links that free up over time), the placements are the same.
   */
  @Test
  void placementStoppedWithinAMillionthIsTheOneAtTheLeastDeadline() {
    Random rnd = new Random(5);
    for (int trial = 0; trial < 300; trial++) {
      int n = 1 + rnd.nextInt(40);
      int m = 1 + rnd.nextInt(12);
      double start = rnd.nextBoolean() ? 0 : 3600 * rnd.nextDouble();
      double[] work = new double[n];
      for (int i = 0; i < n; i++) {
        work[i] = 1 + rnd.nextDouble() * 100;
      }
      LinkProfile[] links = new LinkProfile[m];
      double[] pinned = new double[m];
      for (int j = 0; j < m; j++) {
        links[j] = new LinkProfile(start, 1 + rnd.nextDouble() * 10);
        for (int r = rnd.nextInt(3); r > 0; r--) {
          double from = start + rnd.nextDouble() * 40;
          links[j].reserve(from, from + rnd.nextDouble() * 40, rnd.nextDouble() * 10);
        }
        pinned[j] = rnd.nextInt(3) == 0 ? rnd.nextDouble() * 50 : 0;
      }
      HostCapacity capacity = capacityOf(links, pinned);
      boolean[] eligible = new boolean[m];
      Arrays.fill(eligible, true);
      double upper = start + 1;
      while (!RelatedMachinesPlacement.feasible(work, capacity, eligible, upper)) {
        upper = start + 2 * (upper - start);
      }
      int[] atLeast =
          RelatedMachinesPlacement.solve(work, capacity, eligible, start, upper).hostOf();
      int[] placed = RelatedMachinesPlacement.place(work, capacity, eligible, start, upper);
      assertArrayEquals(atLeast, placed, "trial " + trial);
    }
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

  /**
   * Hosts whose bandwidth changes over time take bytes in another order at each deadline, so the
   * pour must order them again whenever its order no longer holds: the alpha found is the least
   * deadline Hall's condition allows (the eligible sets are nested: each prefix of the hosts, most
   * bytes first, must hold the reducers that fit no later host).
   */
  @Test
  void leastDeadlineWhenTheHostsOrderChangesWithTheDeadline() {
    Random rnd = new Random(11);
    int reordered = 0;
    for (int trial = 0; trial < 300; trial++) {
      int n = 1 + rnd.nextInt(30);
      int m = 1 + rnd.nextInt(10);
      double[] work = new double[n];
      for (int i = 0; i < n; i++) {
        work[i] = 1 + rnd.nextDouble() * 100;
      }
      LinkProfile[] links = new LinkProfile[m];
      for (int j = 0; j < m; j++) {
        links[j] = new LinkProfile(0, 1 + rnd.nextDouble() * 10);
        for (int r = rnd.nextInt(4); r > 0; r--) { // slow for a while: passed later by others
          double from = rnd.nextDouble() * 40;
          links[j].reserve(from, from + rnd.nextDouble() * 40, rnd.nextDouble() * 10);
        }
      }
      HostCapacity capacity = capacityOf(links, new double[m]);
      boolean[] eligible = new boolean[m];
      Arrays.fill(eligible, true);
      double upper = 1;
      while (!hall(work, capacity, upper)) {
        upper *= 2;
      }
      double alpha = RelatedMachinesPlacement.solve(work, capacity, eligible, 0, upper).alpha();
      assertTrue(hall(work, capacity, alpha * (1 + 1e-6)), "trial " + trial + ": not feasible");
      assertTrue(!hall(work, capacity, alpha * (1 - 1e-6)), "trial " + trial + ": not least");
      reordered += sameOrder(capacity, m, alpha, upper) ? 0 : 1;
    }
    assertTrue(reordered > 30, "instances whose hosts change order: " + reordered);
  }

  /** The capacity of hosts on {@code links}, holding {@code pinned} bytes. */
  private static HostCapacity capacityOf(LinkProfile[] links, double[] pinned) {
    return new HostCapacity() {
      @Override
      public int hosts() {
        return links.length;
      }

      @Override
      public double bytesBy(int j, double deadline) {
        return links[j].bytesBy(deadline);
      }

      @Override
      public double pinnedBytes(int j) {
        return pinned[j];
      }
    };
  }

  /** Hall's condition for a fractional placement by {@code deadline}, hosts by bytes descending. */
  private static boolean hall(double[] work, HostCapacity capacity, double deadline) {
    int m = capacity.hosts();
    double[] reach = new double[m + 1]; // reach[m] = 0: past the last host
    for (int j = 0; j < m; j++) {
      reach[j] = capacity.bytesBy(j, deadline);
    }
    Arrays.sort(reach, 0, m);
    double[] byBytes = new double[m + 1];
    for (int j = 0; j < m; j++) {
      byBytes[j] = reach[m - 1 - j];
    }
    double room = 0;
    for (int t = 0; t <= m; t++) { // the first t hosts hold what fits no later host
      double need = 0;
      for (double w : work) {
        need += w > byBytes[t] ? w : 0;
      }
      if (need > room * (1 + 1e-9)) {
        return false;
      }
      room += byBytes[t];
    }
    return true;
  }

  private static boolean sameOrder(HostCapacity capacity, int m, double a, double b) {
    Integer[] atA = new Integer[m];
    Integer[] atB = new Integer[m];
    for (int j = 0; j < m; j++) {
      atA[j] = j;
      atB[j] = j;
    }
    Arrays.sort(atA, (x, y) -> Double.compare(capacity.bytesBy(y, a), capacity.bytesBy(x, a)));
    Arrays.sort(atB, (x, y) -> Double.compare(capacity.bytesBy(y, b), capacity.bytesBy(x, b)));
    return Arrays.equals(atA, atB);
  }
}
