/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Reducer;

/**
 * The map outputs of every shuffle still known: per map task, the executor holding it and its exact
 * bytes per reducer, or none where its sizes are not known. A stage's coflow is built from here
 * once all the map outputs it reads are in ({@link #coflow}). Not thread-safe: {@link
 * LiveCoordinator} guards it.
 */
final class MapOutputStore {

  /** One map task's output: the executor holding it and its bytes per reducer (null: unknown). */
  private record MapOutput(String executorId, long[] bytesPerReducer) {}

  /**
   * Bytes assumed per flow of unknown size when placing a stage none of whose sizes are known: a
   * placeholder that spreads its reducers by the executors' free cores and links, not a size any
   * decision of rates uses.
   */
  static final double ASSUMED_FLOW_BYTES = 1 << 20;

  private final Map<Integer, Map<Integer, MapOutput>> outputs = new HashMap<>();

  /**
   * Records one map task's output (see {@link LiveCoordinator#mapOutput}).
   *
   * @throws IllegalArgumentException when a count is negative or the ids are empty
   */
  void add(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer) {
    if (shuffleId < 0 || mapIndex < 0 || executorId == null || executorId.isEmpty()) {
      throw new IllegalArgumentException(
          "map output: shuffle " + shuffleId + ", map " + mapIndex + ", executor " + executorId);
    }
    for (long b : bytesPerReducer == null ? new long[0] : bytesPerReducer) {
      if (b < 0) {
        throw new IllegalArgumentException(
            "map output of shuffle " + shuffleId + " map " + mapIndex + ": negative size " + b);
      }
    }
    outputs
        .computeIfAbsent(shuffleId, k -> new HashMap<>())
        .put(
            mapIndex,
            new MapOutput(executorId, bytesPerReducer == null ? null : bytesPerReducer.clone()));
  }

  /** Drops everything known of the shuffle. */
  void forget(int shuffleId) {
    outputs.remove(shuffleId);
  }

  /**
   * Checks that every map task of the shuffle reported, each for {@code numReducers} reducers.
   *
   * @throws PlacementUnavailable naming the first map missing or wrong
   */
  void checkComplete(int shuffleId, int numMaps, int numReducers) throws PlacementUnavailable {
    Map<Integer, MapOutput> maps = outputs.getOrDefault(shuffleId, Map.of());
    for (int m = 0; m < numMaps; m++) {
      MapOutput out = maps.get(m);
      if (out == null) {
        throw new PlacementUnavailable(
            "shuffle " + shuffleId + ": no size report for map " + m + " of " + numMaps);
      }
      if (out.bytesPerReducer() != null && out.bytesPerReducer().length != numReducers) {
        throw new PlacementUnavailable(
            "shuffle "
                + shuffleId
                + ": map "
                + m
                + " reported "
                + out.bytesPerReducer().length
                + " reducers, the stage has "
                + numReducers);
      }
    }
  }

  /**
   * Per flow of a coflow being built: the executor, shuffle and reducer it comes from and goes to.
   */
  static final class FlowOrigins {
    final List<String> sources = new ArrayList<>();
    final List<Integer> shuffles = new ArrayList<>();
    final List<Integer> reducers = new ArrayList<>();

    /** The flows of unknown size: those from {@code knownFlows} on. */
    int knownFlows = -1;

    /** Bytes assumed per flow of unknown size. */
    double assumed = ASSUMED_FLOW_BYTES;

    /** Per flow, whether its size is unknown; null when none is. */
    boolean[] unknownFlags() {
      if (knownFlows < 0 || knownFlows == sources.size()) {
        return null;
      }
      boolean[] flags = new boolean[sources.size()];
      Arrays.fill(flags, knownFlows, flags.length, true);
      return flags;
    }
  }

  /**
   * The stage's coflow: one reducer of the model per task, and one flow per map output and reducer
   * with bytes, going to the task that reads that reducer. The flows of map outputs without sizes
   * come last, one per map output and reducer, each assumed as large as the flows of known size on
   * average (see {@link #ASSUMED_FLOW_BYTES}). Every map output must be in ({@link
   * #checkComplete}).
   *
   * @param id the coflow's id
   * @param origins filled with where each flow comes from and goes to
   */
  Coflow coflow(
      String id,
      int[] shuffleIds,
      int[] numMaps,
      ReduceTaskRanges tasks,
      double now,
      HostIndex hosts,
      FlowOrigins origins,
      double weight) {
    List<Reducer> reducers = new ArrayList<>(tasks.tasks());
    for (int t = 0; t < tasks.tasks(); t++) {
      reducers.add(Reducer.free(id + "-r" + t));
    }
    List<Flow> flows = new ArrayList<>();
    double knownBytes = 0;
    for (boolean sized : new boolean[] {true, false}) {
      if (!sized) {
        origins.knownFlows = flows.size();
        origins.assumed = flows.isEmpty() ? ASSUMED_FLOW_BYTES : knownBytes / flows.size();
      }
      for (int i = 0; i < shuffleIds.length; i++) {
        Map<Integer, MapOutput> maps = outputs.get(shuffleIds[i]);
        for (int m = 0; m < numMaps[i]; m++) {
          MapOutput out = maps.get(m);
          long[] bytes = out.bytesPerReducer();
          if ((bytes != null) != sized) {
            continue;
          }
          int src = hosts.indexOrSender(out.executorId());
          for (int t = 0; t < tasks.tasks(); t++) {
            for (int r = tasks.first(t); r < tasks.end(t); r++) {
              if (!sized || bytes[r] > 0) {
                knownBytes += sized ? bytes[r] : 0;
                flows.add(new Flow(src, t, sized ? bytes[r] : origins.assumed));
                origins.sources.add(out.executorId());
                origins.shuffles.add(shuffleIds[i]);
                origins.reducers.add(r);
              }
            }
          }
        }
      }
    }
    return new Coflow(id, now, reducers, flows, weight);
  }
}
