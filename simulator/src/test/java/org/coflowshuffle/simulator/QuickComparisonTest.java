/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.workload.RpcSynthetic;
import org.junit.jupiter.api.Test;

/**
 * The quick mode of the paper's comparison, in the default suite: on a fixed seed, RPC's average
 * CCT is below NEAT's, NEAT's below Varys's, Varys's below fair sharing's.
 *
 * <p>Setting: 10 mapper and 10 reducer hosts, 30 coflows at once (the paper's Fig. 7 style), mapper
 * NICs at 40 Gbps so that placement, not an unmovable slow sender, decides the CCT, and no
 * starvation threshold (the paper gives none). Same command: {@code bin/coflow simulate --workload
 * rpc-synthetic --hosts 10 --coflows 30 --all-at-once --seed 2 --delta 1e9 --mapper-gbps 40}.
 */
class QuickComparisonTest {

  @Test
  void rpcBeatsNeatBeatsVarysBeatsFair() throws Exception {
    Instance inst = new RpcSynthetic(CoflowTrace.facebook()).instance(10, 30, 0, 40 * 1.25e8, 2);
    SchemeOptions options = new SchemeOptions(2, 1e9, false);
    double rpc = mean(Simulation.run(inst, "rpc", options).cct());
    double neat = mean(Simulation.run(inst, "neat", options).cct());
    double varys = mean(Simulation.run(inst, "varys", options).cct());
    double fair = mean(Simulation.run(inst, "fair", options).cct());
    System.out.printf(
        "quick comparison: average CCT rpc %.1f s, neat %.1f s, varys %.1f s, fair %.1f s%n",
        rpc, neat, varys, fair);
    assertTrue(rpc < neat, "rpc " + rpc + " vs neat " + neat);
    assertTrue(neat < varys, "neat " + neat + " vs varys " + varys);
    assertTrue(varys < fair, "varys " + varys + " vs fair " + fair);
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }
}
