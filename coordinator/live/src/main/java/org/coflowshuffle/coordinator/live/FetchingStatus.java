/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.List;

/**
 * A placed stage still fetching, as status pages show it.
 *
 * @param shuffleIds the shuffles it reads
 * @param arrival when it was placed, seconds on the coordinator's clock
 * @param networkBytes bytes its flows move over the network (not those a reducer reads locally)
 * @param remainingBytes of those, bytes not yet delivered
 * @param bytesPerSecond the sum of its flows' current rates
 * @param reducerExecutors per reducer, the executor it runs on
 * @param fetchingReducers reducers fetching now
 * @param weight its weight against other coflows
 */
public record FetchingStatus(
    List<Integer> shuffleIds,
    double arrival,
    double networkBytes,
    double remainingBytes,
    double bytesPerSecond,
    List<String> reducerExecutors,
    int fetchingReducers,
    double weight) {

  public FetchingStatus {
    shuffleIds = List.copyOf(shuffleIds);
    reducerExecutors = List.copyOf(reducerExecutors);
  }
}
