/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

/**
 * A policy's decision for one active coflow until the next invocation. Read-only for whoever
 * receives it: a policy may hand the same array to several coflows (all-zero rates, say), and may
 * rewrite its arrays at its next invocation (copy what must outlive it).
 *
 * @param hostOf host per reducer; -1 leaves it unplaced. Pinned reducers must keep their host. A
 *     placed reducer is pinned as soon as one of its flows gets a positive rate, or at once when it
 *     has no bytes left to fetch over the network.
 * @param rates bytes per second per flow; positive only for flows with a placed reducer and bytes
 *     remaining. Local flows (reducer on the sender) need no rate.
 * @param paths per flow, the index of its path among {@link
 *     org.coflowshuffle.core.model.Fabric#paths} from its sender to its reducer's host; null on a
 *     big switch, where every pair of hosts has one path
 */
public record CoflowAssignment(int[] hostOf, double[] rates, int[] paths) {

  /** An assignment on a big switch: no path to choose. */
  public CoflowAssignment(int[] hostOf, double[] rates) {
    this(hostOf, rates, null);
  }
}
