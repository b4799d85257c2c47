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
import java.util.Set;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Reducer;

/**
 * The map outputs of every shuffle still known, summed per executor as they arrive ({@link
 * MapOutputTotals}): what the flows of a stage need, one per executor and reducer. A stage's coflow
 * is built from here once all the map outputs it reads are in ({@link #coflow}). Not thread-safe:
 * {@link LiveCoordinator} guards it.
 */
final class MapOutputStore {

  /**
   * Bytes assumed per flow of unknown size when placing a stage none of whose sizes are known: a
   * placeholder that spreads its reducers by the executors' free cores and links, not a size any
   * decision of rates uses.
   */
  static final double ASSUMED_FLOW_BYTES = 1 << 20;

  private final Map<Integer, MapOutputTotals> outputs = new HashMap<>();

  /**
   * Records the output of one map task, or of several on one executor with their sizes summed (see
   * {@link LiveCoordinator#mapOutput}).
   *
   * @throws IllegalArgumentException when a count is negative or the ids are empty
   */
  void add(int shuffleId, int[] mapIndices, String executorId, long[] bytesPerReducer) {
    if (shuffleId < 0) {
      throw new IllegalArgumentException("map output: shuffle " + shuffleId);
    }
    MapOutputTotals totals = outputs.computeIfAbsent(shuffleId, k -> new MapOutputTotals());
    try {
      totals.addSummed(mapIndices, executorId, bytesPerReducer);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("shuffle " + shuffleId + ": " + e.getMessage(), e);
    }
  }

  /** The shuffles whose map output is known. */
  Set<Integer> shuffles() {
    return outputs.keySet();
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
    MapOutputTotals totals = outputs.getOrDefault(shuffleId, new MapOutputTotals());
    String why = totals.incomplete(numMaps, numReducers);
    if (why != null) {
      throw new PlacementUnavailable(
          PlacementUnavailable.Cause.MAP_OUTPUT, "shuffle " + shuffleId + ": " + why);
    }
  }

  /**
   * Per flow of a coflow being built: the executor, shuffle and reducer it comes from and goes to.
   */
  static final class FlowOrigins {
    /** The executors flows come from, each once. */
    final List<String> sources = new ArrayList<>();

    private final Map<String, Integer> sourceSlot = new HashMap<>();
    private int[] source = new int[16];
    private int[] shuffle = new int[16];
    private int[] reducer = new int[16];
    private int flows;

    /** The flows of unknown size: those from {@code knownFlows} on. */
    int knownFlows = -1;

    /** Bytes assumed per flow of unknown size. */
    double assumed = ASSUMED_FLOW_BYTES;

    void add(String executor, int shuffleId, int reduceId) {
      if (flows == source.length) {
        source = Arrays.copyOf(source, 2 * flows);
        shuffle = Arrays.copyOf(shuffle, 2 * flows);
        reducer = Arrays.copyOf(reducer, 2 * flows);
      }
      source[flows] =
          sourceSlot.computeIfAbsent(
              executor,
              e -> {
                sources.add(e);
                return sources.size() - 1;
              });
      shuffle[flows] = shuffleId;
      reducer[flows] = reduceId;
      flows++;
    }

    /** Per flow, its executor as an index into {@link #sources}. */
    int[] sourceOfFlow() {
      return Arrays.copyOf(source, flows);
    }

    /** Per flow, the shuffle it belongs to. */
    int[] shuffles() {
      return Arrays.copyOf(shuffle, flows);
    }

    /** Per flow, the reducer (reduce partition) it goes to. */
    int[] reducers() {
      return Arrays.copyOf(reducer, flows);
    }

    /** Per flow, whether its size is unknown; null when none is. */
    boolean[] unknownFlags() {
      if (knownFlows < 0 || knownFlows == flows) {
        return null;
      }
      boolean[] flags = new boolean[flows];
      Arrays.fill(flags, knownFlows, flags.length, true);
      return flags;
    }
  }

  /**
   * The stage's coflow: one reducer of the model per task, and per executor holding map output and
   * per reducer one flow with the bytes that executor holds for it, going to the task that reads
   * that reducer. The flows of map outputs without sizes come last, one per executor holding any
   * and reducer, each assumed as large as the flows of known size on average (see {@link
   * #ASSUMED_FLOW_BYTES}). Every map output must be in ({@link #checkComplete}).
   *
   * @param id the coflow's id
   * @param origins filled with where each flow comes from and goes to
   */
  Coflow coflow(
      String id,
      int[] shuffleIds,
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
      for (int shuffleId : shuffleIds) {
        MapOutputTotals totals = outputs.getOrDefault(shuffleId, new MapOutputTotals());
        for (String executor : totals.executors()) {
          long[] bytes = sized ? totals.sizedBytes(executor) : null;
          if (sized ? bytes == null : totals.unsizedMaps(executor) == 0) {
            continue;
          }
          int src = hosts.indexOrSender(executor);
          for (int t = 0; t < tasks.tasks(); t++) {
            for (int r = tasks.first(t); r < tasks.end(t); r++) {
              if (!sized || bytes[r] > 0) {
                knownBytes += sized ? bytes[r] : 0;
                flows.add(new Flow(src, t, sized ? bytes[r] : origins.assumed));
                origins.add(executor, shuffleId, r);
              }
            }
          }
        }
      }
    }
    return new Coflow(id, now, reducers, flows, weight);
  }
}
