/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

import java.util.List;
import org.coflowshuffle.core.model.Host;

/**
 * A scheme that places a coflow's reducers once, when it arrives, and whose rate for a flow depends
 * only on the two hosts the flow goes between and on how many flows go between each pair of hosts:
 * per-flow fair sharing, where every flow between the same two hosts gets the same rate whatever
 * its coflow. A runner may then track host pairs instead of flows. The paper's widest setting puts
 * a quarter of a billion flows in flight at once under fair sharing; there are at most a million
 * host pairs, and they change rate only when the policy decides.
 *
 * <p>Both methods answer as {@link #decide} would on the same cluster, so a run by pairs and a run
 * by flows give the same schedule, up to rounding. Threading as {@link SchedulingPolicy}.
 */
public interface PairwisePolicy extends SchedulingPolicy {

  /**
   * Hosts for the reducers of coflows seen for the first time, as {@link #decide} would place them
   * on their first invocation. Called only for clusters where every host that runs reducers has
   * unlimited slots.
   *
   * @param arrivals the coflows that arrived since the last call, in arrival order
   * @return per coflow of the view, a host per reducer (pinned reducers keep theirs)
   */
  int[][] placements(ClusterView arrivals);

  /**
   * The rate of each flow between every pair of hosts, given the flows in flight on each pair.
   * Pairs are distinct; arrays are read-only.
   *
   * @param hosts the cluster, whose bandwidth is all available
   * @param from sending host per pair
   * @param to receiving host per pair
   * @param flows flows in flight per pair, each at least 1
   * @return bytes per second for each flow of pair i, at index i
   */
  double[] pairRates(List<Host> hosts, int[] from, int[] to, int[] flows);
}
