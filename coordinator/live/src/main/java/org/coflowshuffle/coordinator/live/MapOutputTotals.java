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

/**
 * The map output of one shuffle as a coordinator needs it: which executor holds each map task's
 * output, and per executor the bytes its map outputs hold for each reducer, summed as the reports
 * arrive. Memory grows with executors × reducers plus the maps, not with maps × reducers: a shuffle
 * of 10,000 × 10,000 over 100 executors keeps 8 MB of sums instead of 800 MB of reports.
 *
 * <p>A later report of a map index (a retried or speculative task, or one rerun after its executor
 * was lost) moves that map to the new executor: its bytes are added there and taken off the
 * executor it was on. What is taken off is the new report's sizes, clamped at zero, since the old
 * ones are not kept: exact for the deterministic map tasks Spark reruns, an estimate otherwise.
 *
 * <p>Not thread-safe.
 */
public final class MapOutputTotals {

  private static final int SIZED = 1;
  private static final int WRONG_LENGTH = 2;

  /**
   * Per map index: its executor's slot shifted left by 2, with {@link #SIZED}, {@link
   * #WRONG_LENGTH}.
   */
  private final Map<Integer, Integer> maps = new HashMap<>();

  private final Map<String, Integer> slotOf = new HashMap<>();
  private final List<String> executors = new ArrayList<>();

  /** Per executor slot: the summed sizes of its sized map outputs (null for none). */
  private final List<long[]> sums = new ArrayList<>();

  /** Per executor slot: its map outputs without sizes. */
  private final List<Integer> unsized = new ArrayList<>();

  /** Per map whose report had another length than the first sized one, that length. */
  private final Map<Integer, Integer> wrongLengths = new HashMap<>();

  /** Reducers per sized report: the length of the first one; -1 before it. */
  private int reducers = -1;

  /**
   * Records one map task's output: on {@code executorId}, with {@code bytesPerReducer} (null when
   * its sizes are not known). A report whose length differs from the first sized one is kept as
   * such and makes the shuffle {@linkplain #incomplete incomplete}.
   *
   * @throws IllegalArgumentException for a negative map index or size, or an empty executor id
   */
  public void add(int mapIndex, String executorId, long[] bytesPerReducer) {
    addSummed(new int[] {mapIndex}, executorId, bytesPerReducer);
  }

  /**
   * Records the output of several map tasks on one executor at once, {@code summedBytes} their
   * sizes per reducer added up (null when not known): how a client that keeps these totals replays
   * them. Each map's bytes are then counted in the sum only; a later report of one of them takes
   * its own bytes off.
   *
   * @throws IllegalArgumentException as {@link #add} does, or for no map index
   */
  public void addSummed(int[] mapIndices, String executorId, long[] summedBytes) {
    if (mapIndices.length == 0 || executorId == null || executorId.isEmpty()) {
      throw new IllegalArgumentException(
          "map output: maps " + Arrays.toString(mapIndices) + ", executor " + executorId);
    }
    for (int m : mapIndices) {
      if (m < 0) {
        throw new IllegalArgumentException("map output: map " + m);
      }
    }
    if (summedBytes != null) {
      for (long b : summedBytes) {
        if (b < 0) {
          throw new IllegalArgumentException(
              "map output of map " + mapIndices[0] + ": negative size " + b);
        }
      }
    }
    boolean fits = summedBytes != null && (reducers < 0 || summedBytes.length == reducers);
    int slot = slot(executorId);
    for (int m : mapIndices) {
      Integer before = maps.get(m);
      wrongLengths.remove(m);
      if (before != null) {
        takeOff(before, fits && mapIndices.length == 1 ? summedBytes : null);
      }
      int state = slot << 2;
      if (summedBytes == null) {
        unsized.set(slot, unsized.get(slot) + 1);
      } else {
        state |= fits ? SIZED : WRONG_LENGTH;
        if (!fits) {
          wrongLengths.put(m, summedBytes.length);
        }
      }
      maps.put(m, state);
    }
    if (fits) {
      reducers = summedBytes.length;
      long[] sum = sums.get(slot);
      if (sum == null) {
        sum = new long[reducers];
        sums.set(slot, sum);
      }
      for (int r = 0; r < reducers; r++) {
        sum[r] += summedBytes[r];
      }
    }
  }

  /** Takes an earlier report of a map off its executor, by {@code bytes} where it had sizes. */
  private void takeOff(int state, long[] bytes) {
    int slot = state >>> 2;
    if ((state & SIZED) != 0 && bytes != null) {
      long[] sum = sums.get(slot);
      for (int r = 0; r < sum.length; r++) {
        sum[r] = Math.max(0, sum[r] - bytes[r]);
      }
    } else if ((state & (SIZED | WRONG_LENGTH)) == 0) {
      unsized.set(slot, unsized.get(slot) - 1);
    }
  }

  private int slot(String executorId) {
    Integer slot = slotOf.get(executorId);
    if (slot == null) {
      slot = executors.size();
      slotOf.put(executorId, slot);
      executors.add(executorId);
      sums.add(null);
      unsized.add(0);
    }
    return slot;
  }

  /**
   * Why the output of {@code numMaps} map tasks for {@code numReducers} reducers is not all here,
   * in one line naming the first map missing or wrong; null when it is.
   */
  public String incomplete(int numMaps, int numReducers) {
    for (int m = 0; m < numMaps; m++) {
      Integer state = maps.get(m);
      if (state == null) {
        return "no size report for map " + m + " of " + numMaps;
      }
      if ((state & WRONG_LENGTH) != 0 || ((state & SIZED) != 0 && reducers != numReducers)) {
        return "map "
            + m
            + " reported "
            + ((state & WRONG_LENGTH) != 0 ? wrongLengths.get(m) : reducers)
            + " reducers, the stage has "
            + numReducers;
      }
    }
    return null;
  }

  /** The executors that hold map output of this shuffle, in the order they first reported. */
  public List<String> executors() {
    return List.copyOf(executors);
  }

  /**
   * The bytes the executor's sized map outputs hold per reducer, summed; null when it holds none.
   * The array is this object's own: read it, do not keep or change it.
   */
  public long[] sizedBytes(String executorId) {
    Integer slot = slotOf.get(executorId);
    return slot == null ? null : sums.get(slot);
  }

  /** How many map outputs without sizes the executor holds. */
  public int unsizedMaps(String executorId) {
    Integer slot = slotOf.get(executorId);
    return slot == null ? 0 : unsized.get(slot);
  }

  /**
   * The map indices on the executor, those with sizes ({@code sized}) or those without, ascending;
   * reports of the wrong length are in neither.
   */
  public int[] mapsOn(String executorId, boolean sized) {
    Integer slot = slotOf.get(executorId);
    if (slot == null) {
      return new int[0];
    }
    int want = (slot << 2) | (sized ? SIZED : 0);
    return maps.entrySet().stream()
        .filter(e -> e.getValue() == want)
        .mapToInt(Map.Entry::getKey)
        .sorted()
        .toArray();
  }
}
