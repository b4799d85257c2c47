/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * One coflow's placement with what it would put on each link and when it would finish, given the
 * bandwidth left by the coflows served before it (Algorithm 1, line 5).
 *
 * @param demand the coflow
 * @param hostOf host per reducer (pinned ones included); -1 for reducers left to a later wave
 * @param finish estimated completion time, absolute seconds
 * @param laterWave seconds of {@code finish} that the reducers left for a later wave add (section
 *     IV-D, multi-wave): {@code finish - laterWave} is when the reducers placed now are done
 * @param received bytes each host must receive over its incoming link (dense, per host)
 * @param sent bytes each host must send over its outgoing link (dense, per host)
 * @param touched the hosts with bytes in {@code received} or {@code sent}, ascending: what loops
 *     over the plan's links visit instead of the whole cluster
 */
public record CoflowPlan(
    CoflowDemand demand,
    int[] hostOf,
    double finish,
    double laterWave,
    double[] received,
    double[] sent,
    int[] touched) {

  /** When the reducers placed now are done: the finish of the coflow's current wave. */
  public double waveFinish() {
    return finish - laterWave;
  }

  /** True when every reducer has a host. */
  public boolean complete() {
    for (int h : hostOf) {
      if (h < 0) {
        return false;
      }
    }
    return true;
  }
}
