package org.coflowshuffle.core.policy;

/**
 * A policy's decision for one active coflow until the next invocation.
 *
 * @param hostOf host per reducer; -1 leaves it unplaced. Pinned reducers must keep their host. A
 *     placed reducer is pinned as soon as one of its flows gets a positive rate, or at once when it
 *     has no bytes left to fetch over the network.
 * @param rates bytes per second per flow; positive only for flows with a placed reducer and bytes
 *     remaining. Local flows (reducer on the sender) need no rate.
 */
public record CoflowAssignment(int[] hostOf, double[] rates) {}
