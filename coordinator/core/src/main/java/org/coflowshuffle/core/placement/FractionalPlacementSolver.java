/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

/**
 * Solves the relaxation (6) of the placement problem: the least {@code alpha} for which a
 * fractional placement exists, and that placement. Implementations differ in method (an LP solver,
 * or a combinatorial algorithm for related machines) but must agree on {@code alpha}.
 */
public interface FractionalPlacementSolver {

  /**
   * @throws PlacementException when the solver cannot produce a solution (solver failure or time
   *     limit); the caller falls back to another method
   */
  FractionalPlacement solve(MakespanProblem problem);
}
