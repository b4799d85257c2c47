/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Which executor runs the task of each reducer of the stages fetching now, from Spark's task
 * events, so that only that executor's rate questions reach the coordinator. A question from
 * elsewhere comes from a fetch no task waits for: a failed task's fetch that runs on after it, or
 * an early fetch for an earlier placement of the reducer. Passed on, it would move the reducer
 * there, or start a reducer whose task ended anew, and the coordinator would pace flows nobody
 * reads against those a task does. Such a fetch is answered with no limit, as Spark would fetch it.
 *
 * <p>Written on the listener's thread, read on the driver's RPC threads.
 */
final class ReducerTasks {

  /** Where a reducer's task ended: no executor id is empty. */
  private static final String ENDED = "";

  private final Map<Long, String> runsOn = new ConcurrentHashMap<>();
  private final BiFunction<Integer, Integer, Optional<String>> placedOn;

  /**
   * @param placedOn the executor a shuffle's reducer was placed on, where its early fetch runs
   *     before its task starts; empty where Spark places the tasks
   */
  ReducerTasks(BiFunction<Integer, Integer, Optional<String>> placedOn) {
    this.placedOn = placedOn;
  }

  /** One key for a shuffle's reducer, for maps kept per reducer of the stages fetching now. */
  static long key(int shuffleId, int reducer) {
    return ((long) shuffleId << 32) | (reducer & 0xffffffffL);
  }

  /** The reducer's task (a first attempt or a retry) started on {@code executorId}. */
  void started(int shuffleId, int reducer, String executorId) {
    runsOn.put(key(shuffleId, reducer), executorId);
  }

  /** The reducer's task ended, and no retry of it has started. */
  void ended(int shuffleId, int reducer) {
    runsOn.put(key(shuffleId, reducer), ENDED);
  }

  /** A stage reading the shuffle is submitted (again) or over: its tasks start from nothing. */
  void forget(int shuffleId) {
    runsOn.keySet().removeIf(k -> (int) (k >> 32) == shuffleId);
  }

  /**
   * Whether a question of {@code fetcher} about the reducer's flows speaks for the fetch its task
   * waits for: the task's own, or before it starts, the early fetch where it was placed.
   */
  boolean asks(int shuffleId, int reducer, String fetcher) {
    String at = runsOn.get(key(shuffleId, reducer));
    if (at == null) {
      return placedOn.apply(shuffleId, reducer).map(p -> p.equals(fetcher)).orElse(true);
    }
    return at.equals(fetcher);
  }
}
