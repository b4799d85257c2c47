/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * The flows of one coflow that must cross the network now (reducer placed elsewhere than the
 * sender, bytes left), with their bytes and candidate paths: what the routing schemes work on.
 *
 * @param flow index of each crossing flow in its coflow
 * @param dst host of each crossing flow's reducer
 * @param bytes bytes left per crossing flow
 * @param candidates candidate paths per crossing flow, as {@link Fabric#paths} gives them
 */
record CrossingFlows(int[] flow, int[] dst, double[] bytes, int[][][] candidates) {

  static CrossingFlows of(ActiveCoflow a, int[] hostOf, Fabric fabric) {
    int n = 0;
    for (int k = 0; k < a.remaining().length; k++) {
      n += a.crossesNetwork(k, hostOf) ? 1 : 0;
    }
    int[] flow = new int[n];
    int[] dst = new int[n];
    double[] bytes = new double[n];
    int[][][] candidates = new int[n][][];
    int j = 0;
    for (int k = 0; k < a.remaining().length; k++) {
      if (a.crossesNetwork(k, hostOf)) {
        flow[j] = k;
        dst[j] = hostOf[a.flowReducer()[k]];
        bytes[j] = a.remaining()[k];
        candidates[j] = fabric.paths(a.flowSource()[k], dst[j]);
        j++;
      }
    }
    return new CrossingFlows(flow, dst, bytes, candidates);
  }

  int size() {
    return flow.length;
  }
}
