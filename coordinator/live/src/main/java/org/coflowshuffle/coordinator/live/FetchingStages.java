/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * The placed stages still fetching, in the order they were placed, each found by the set of
 * shuffles it reads or by any one of them. Not thread-safe: {@link LiveCoordinator} guards it.
 */
final class FetchingStages {

  private final Map<List<Integer>, FetchingCoflow> byShuffles = new LinkedHashMap<>();
  private final Map<Integer, FetchingCoflow> byShuffle = new HashMap<>();

  /** A stage reading the shuffles {@code key} (sorted ids) now fetches. */
  void add(List<Integer> key, FetchingCoflow stage) {
    byShuffles.put(key, stage);
    key.forEach(id -> byShuffle.put(id, stage));
  }

  /** The stage reading the shuffle, or null when none is fetching. */
  FetchingCoflow reading(int shuffleId) {
    return byShuffle.get(shuffleId);
  }

  /**
   * The stage reading the shuffle stops fetching.
   *
   * @return that stage, or null when none was fetching
   */
  FetchingCoflow remove(int shuffleId) {
    FetchingCoflow c = byShuffle.get(shuffleId);
    if (c != null) {
      byShuffles.values().remove(c);
      byShuffle.values().removeIf(x -> x == c);
    }
    return c;
  }

  /** The stages, in the order they were placed. */
  Collection<FetchingCoflow> all() {
    return byShuffles.values();
  }

  /** Each stage with the shuffles it reads, in the order they were placed. */
  void forEach(BiConsumer<List<Integer>, FetchingCoflow> action) {
    byShuffles.forEach(action);
  }

  int size() {
    return byShuffles.size();
  }

  /** How messages name a stage by the shuffles it reads, e.g. {@code 3+4}. */
  static String name(List<Integer> shuffleIds) {
    return shuffleIds.stream().map(String::valueOf).collect(Collectors.joining("+"));
  }
}
