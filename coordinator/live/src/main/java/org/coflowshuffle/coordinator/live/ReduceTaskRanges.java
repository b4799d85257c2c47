/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.Arrays;

/**
 * How the tasks of a stage divide the reduce partitions (reducers) of the shuffles it reads: task t
 * reads reducers {@code first(t)} up to, not including, {@code end(t)}. Usually one task per
 * reducer; Spark's adaptive execution coalesces runs of small partitions into one task, and then
 * the task, not the reducer, is what runs on one executor: the coordinator places tasks, and every
 * reducer of a task shares its executor.
 *
 * <p>Immutable; equal when they divide the same reducers alike.
 */
public final class ReduceTaskRanges {

  private final int[] starts;
  private final int reducers;

  private ReduceTaskRanges(int[] starts, int reducers) {
    this.starts = starts;
    this.reducers = reducers;
  }

  /** One task per reducer, the division without adaptive execution. */
  public static ReduceTaskRanges oneEach(int reducers) {
    if (reducers < 0) {
      throw new IllegalArgumentException("reducers must be >= 0: " + reducers);
    }
    int[] starts = new int[reducers];
    Arrays.setAll(starts, r -> r);
    return new ReduceTaskRanges(starts, reducers);
  }

  /**
   * Tasks that each read a run of reducers.
   *
   * @param starts the first reducer of each task: 0 first, then strictly increasing, every one
   *     below {@code reducers}
   * @throws IllegalArgumentException when the starts do not divide {@code [0, reducers)} so
   */
  public static ReduceTaskRanges of(int[] starts, int reducers) {
    if (starts.length == 0 ? reducers != 0 : starts[0] != 0) {
      throw new IllegalArgumentException(
          "the first task must start at reducer 0: " + Arrays.toString(starts));
    }
    for (int t = 1; t < starts.length; t++) {
      if (starts[t] <= starts[t - 1]) {
        throw new IllegalArgumentException(
            "task starts must increase: " + starts[t - 1] + " then " + starts[t]);
      }
    }
    if (starts.length > 0 && starts[starts.length - 1] >= reducers) {
      throw new IllegalArgumentException(
          "task start "
              + starts[starts.length - 1]
              + " is past the last of "
              + reducers
              + " reducers");
    }
    return new ReduceTaskRanges(starts.clone(), reducers);
  }

  /** Number of tasks. */
  public int tasks() {
    return starts.length;
  }

  /** Number of reducers, over all tasks. */
  public int reducers() {
    return reducers;
  }

  /** Whether every task reads exactly one reducer. */
  public boolean oneEach() {
    return starts.length == reducers;
  }

  /** The first reducer task {@code task} reads. */
  public int first(int task) {
    return starts[task];
  }

  /** One past the last reducer task {@code task} reads. */
  public int end(int task) {
    return task + 1 < starts.length ? starts[task + 1] : reducers;
  }

  /** The task that reads reducer {@code reducer}, or -1 when it is not one of them. */
  public int taskOf(int reducer) {
    if (reducer < 0 || reducer >= reducers) {
      return -1;
    }
    int at = Arrays.binarySearch(starts, reducer);
    return at >= 0 ? at : -at - 2;
  }

  /** The first reducer of every task (a copy), as the protocol carries them. */
  public int[] starts() {
    return starts.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReduceTaskRanges r
        && reducers == r.reducers
        && Arrays.equals(starts, r.starts);
  }

  @Override
  public int hashCode() {
    return 31 * reducers + Arrays.hashCode(starts);
  }

  /** For example {@code 3 tasks of 8 reducers from [0, 2, 5]}. */
  @Override
  public String toString() {
    return tasks() + " tasks of " + reducers + " reducers from " + Arrays.toString(starts);
  }
}
