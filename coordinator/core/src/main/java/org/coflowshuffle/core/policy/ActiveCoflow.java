/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

import org.coflowshuffle.core.model.Coflow;

/**
 * A coflow that has arrived and is not finished, as a policy sees it at one instant. The arrays are
 * read-only and valid only during the invocation that received them, but for {@code flowSource} and
 * {@code flowReducer}, which stay the same for as long as the view shows the same {@code coflow}
 * object (a policy may keep them with what it derives from the coflow's structure).
 *
 * @param index position of the coflow in the instance; stable across invocations, so policies may
 *     key state on it
 * @param coflow the coflow itself
 * @param remaining bytes still to deliver, per flow (same order as {@code coflow.flows()}); zero
 *     also for a flow that needs no network (its reducer runs on its source) or that moves nothing
 *     now (its reducer waits for a task slot)
 * @param sentBytes bytes delivered over the network so far over all flows: what a scheduler blind
 *     to sizes can know. Not {@code bytes - remaining}, which would also count the flows {@code
 *     remaining} leaves out for the time being
 * @param hostOf host of each reducer, or -1 where none is chosen yet
 * @param pinned per reducer: true once one of its flows has started; its host can no longer change
 *     (paper section III)
 * @param waitingSince seconds the coflow has waited since it arrived with none of its flows moving:
 *     the paper's waitTime(), which the starvation threshold delta compares. A coflow being served,
 *     however slowly, does not wait; counting its age instead would make every coflow that lasts
 *     longer than delta starving, and shortest first would give way to oldest first
 * @param version changes whenever {@code remaining} or {@code pinned} changed since an earlier
 *     view, so that policies can reuse what they derived from an unchanged coflow
 * @param flowSource per flow, its sending host (the flows' {@code src} as a plain array, for loops
 *     over many flows)
 * @param flowReducer per flow, its reducer's index
 * @param totals {@code remaining} summed per reducer and per source host, or null where the caller
 *     does not keep them (a policy then sums them itself, see {@link #totalsOrSum})
 */
public record ActiveCoflow(
    int index,
    Coflow coflow,
    double[] remaining,
    double sentBytes,
    int[] hostOf,
    boolean[] pinned,
    double waitingSince,
    long version,
    int[] flowSource,
    int[] flowReducer,
    RemainingTotals totals) {

  /**
   * {@link #totals()} if the caller kept them, else summed now (one pass over the flows), with
   * {@code perSource} at least {@code sources} long.
   */
  public RemainingTotals totalsOrSum(int sources) {
    if (totals != null && totals.perSource().length >= sources) {
      return totals;
    }
    return RemainingTotals.of(
        remaining, flowReducer, flowSource, coflow.reducers().size(), sources);
  }

  /**
   * True when flow k still has bytes to move over the network under placement {@code hostOf}: its
   * reducer has a host and that host is not the flow's source.
   */
  public boolean crossesNetwork(int k, int[] hostOf) {
    int h = hostOf[flowReducer[k]];
    return remaining[k] > 0 && h >= 0 && h != flowSource[k];
  }

  /** Bytes still to deliver over all flows. */
  public double remainingBytes() {
    double sum = 0;
    for (double r : remaining) {
      sum += r;
    }
    return sum;
  }
}
