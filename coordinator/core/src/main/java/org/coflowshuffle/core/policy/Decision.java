/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * The answer of one policy invocation: an assignment per active coflow, in the order of {@link
 * ClusterView#coflows()}, and the time at which the policy wants to be asked again even if no flow
 * finishes or coflow arrives ({@link Double#POSITIVE_INFINITY} for never), e.g. when a waiting
 * coflow crosses the starvation threshold.
 */
public record Decision(List<CoflowAssignment> assignments, double wakeUpAt) {

  public Decision {
    assignments = List.copyOf(assignments);
  }

  /** The decision giving the i-th active coflow {@code hostOf[i]} and {@code rates[i]}. */
  public static Decision of(int[][] hostOf, double[][] rates, double wakeUpAt) {
    return of(hostOf, rates, null, wakeUpAt);
  }

  /**
   * Like {@link #of(int[][], double[][], double)}, with the i-th coflow's paths {@code paths[i]}.
   */
  public static Decision of(int[][] hostOf, double[][] rates, int[][] paths, double wakeUpAt) {
    List<CoflowAssignment> assignments = new ArrayList<>(hostOf.length);
    for (int i = 0; i < hostOf.length; i++) {
      assignments.add(new CoflowAssignment(hostOf[i], rates[i], paths == null ? null : paths[i]));
    }
    return new Decision(assignments, wakeUpAt);
  }
}
