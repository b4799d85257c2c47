/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.placement.FractionalPlacementSolver;
import org.coflowshuffle.core.placement.MakespanProblem;
import org.coflowshuffle.core.placement.PlacementException;

/**
 * Solves the relaxation (6) without an LP where the problem is the one the paper poses, related
 * machines (e_nj = w_n / b_j: every host's times are the same reducers' works over its own speed),
 * by {@link RelatedMachinesPlacement}'s pour: the same least {@code alpha}, and a fractional
 * placement that meets it with at most N + M non-zero fractions (Lemma 2), for Algorithm 2 to round
 * as it would the LP's. Any other problem goes to {@code general}, the LP.
 */
public final class RelatedMachinesSolver implements FractionalPlacementSolver {

  /** Two times count as the same ratio of works within this relative error. */
  private static final double RELATED = 1e-9;

  private final FractionalPlacementSolver general;

  public RelatedMachinesSolver(FractionalPlacementSolver general) {
    this.general = general;
  }

  @Override
  public FractionalPlacement solve(MakespanProblem problem) {
    Related related = related(problem);
    if (related == null) {
      return general.solve(problem);
    }
    int m = problem.hosts();
    double[] initial = problem.initialLoad();
    double[] pinned = new double[m];
    double most = 0; // (6a) holds on every host: alpha is at least each one's initial load
    int fastest = -1;
    for (int j = 0; j < m; j++) {
      if (!(initial[j] >= 0) || Double.isInfinite(initial[j])) {
        throw new PlacementException("host " + j + ": initial load " + initial[j]);
      }
      pinned[j] = initial[j] * related.speed[j];
      most = Math.max(most, initial[j]);
      if (related.eligible[j] && (fastest < 0 || related.speed[j] > related.speed[fastest])) {
        fastest = j;
      }
    }
    double total = 0;
    for (double w : related.work) {
      total += w;
    }
    if (fastest < 0 || related.speed[fastest] == 0 && total > 0) {
      return general.solve(problem); // no host can take bytes: let the LP say so
    }
    // A deadline surely met: every reducer on the fastest host.
    double upper =
        Math.max(most, total > 0 ? initial[fastest] + total / related.speed[fastest] : 0);
    upper = upper * (1 + 1e-9) + 1e-12;
    return RelatedMachinesPlacement.relax(
        related.work, HostCapacity.constant(related.speed, pinned), related.eligible, most, upper);
  }

  /** Works and speeds such that {@code time[n][j] = work[n] / speed[j]}, or null. */
  private record Related(double[] work, double[] speed, boolean[] eligible) {}

  /**
   * Reads works and speeds off the matrix: a reference reducer with work fixes each host's speed,
   * and every other reducer must then have one work on all its hosts. A host may be closed to every
   * reducer (a column of infinities); a reducer with no bytes has time 0 everywhere.
   */
  private static Related related(MakespanProblem problem) {
    double[][] time = problem.time();
    int m = problem.hosts();
    int reference = -1;
    for (int n = 0; n < time.length && reference < 0; n++) {
      for (int j = 0; j < m; j++) {
        if (time[n][j] > 0 && time[n][j] < Double.POSITIVE_INFINITY) {
          reference = n;
          break;
        }
      }
    }
    double[] speed = new double[m];
    boolean[] eligible = new boolean[m];
    double[] work = new double[time.length];
    if (reference < 0) { // nothing to fetch anywhere: any host with a finite time will do
      for (int j = 0; j < m; j++) {
        for (double[] row : time) {
          eligible[j] |= row[j] == 0;
        }
        speed[j] = 1;
      }
      return new Related(work, speed, eligible);
    }
    for (int j = 0; j < m; j++) {
      double t = time[reference][j];
      eligible[j] = t < Double.POSITIVE_INFINITY;
      speed[j] = eligible[j] && t > 0 ? 1 / t : 0; // the reference reducer's work is 1
      if (eligible[j] && t == 0) {
        return null; // no bytes on one host but some on another: not related
      }
    }
    for (int n = 0; n < time.length; n++) {
      double w = -1;
      for (int j = 0; j < m; j++) {
        double t = time[n][j];
        if (!eligible[j]) {
          if (t > 0 && t < Double.POSITIVE_INFINITY) {
            return null; // a host closed to the reference reducer only
          }
          continue; // closed, or open only to reducers with nothing to fetch, which go elsewhere
        }
        double here = t * speed[j];
        if (t == Double.POSITIVE_INFINITY
            || w >= 0 && Math.abs(here - w) > RELATED * Math.max(w, here)) {
          return null;
        }
        w = here;
      }
      work[n] = Math.max(0, w);
    }
    return new Related(work, speed, eligible);
  }
}
