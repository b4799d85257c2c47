/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.util.List;
import java.util.Map;

/**
 * What {@code /status} returns as JSON and the status page shows.
 *
 * @param scheme the scheme deciding
 * @param epoch number of the last rate decision pushed
 * @param applications registered applications and how many shuffles each has registered
 * @param rateRequests flows whose fetchers wait for rate updates
 * @param coflows placed stages still fetching
 */
public record Status(
    String scheme,
    long epoch,
    Map<String, Integer> applications,
    int rateRequests,
    List<CoflowView> coflows) {

  /**
   * One placed stage still fetching.
   *
   * @param app its application
   * @param shuffles the shuffles it reads
   * @param arrival when it was placed, seconds since the coordinator started
   * @param networkBytes bytes its flows move over the network
   * @param remainingBytes of those, bytes not yet delivered
   * @param bytesPerSecond the sum of its flows' current rates
   * @param fetchingReducers reducers fetching now
   * @param reducerExecutors per reducer, the executor it runs on
   * @param weight its weight against other coflows, as its placement request gave it
   */
  public record CoflowView(
      String app,
      List<Integer> shuffles,
      double arrival,
      double networkBytes,
      double remainingBytes,
      double bytesPerSecond,
      int fetchingReducers,
      List<String> reducerExecutors,
      double weight) {}
}
