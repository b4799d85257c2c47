/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.List;

/**
 * Where each reducer of a stage runs, as decided once the map output of every shuffle it reads was
 * complete. A stage that reads several shuffles (a join) is one coflow: reducer r fetches partition
 * r of each, so all of them share this placement. When a task of the stage reads several reducers
 * (adaptive execution coalesced them), they all run where their task was placed.
 *
 * @param shuffleIds the shuffles the stage reads
 * @param scheme the scheme that decided it
 * @param executorOfReducer per reduce partition, the executor chosen for it
 * @param tasks how the stage's tasks divide the reducers
 * @param weight the coflow's weight against others, as the placement request gave it
 */
public record ShufflePlacement(
    List<Integer> shuffleIds,
    String scheme,
    List<ExecutorSlots> executorOfReducer,
    ReduceTaskRanges tasks,
    double weight) {

  public ShufflePlacement {
    shuffleIds = List.copyOf(shuffleIds);
    executorOfReducer = List.copyOf(executorOfReducer);
    if (tasks.reducers() != executorOfReducer.size()) {
      throw new IllegalArgumentException(
          executorOfReducer.size() + " reducers placed, " + tasks + " expected");
    }
  }

  /** A placement of weight 1 with one task per reducer. */
  public ShufflePlacement(
      List<Integer> shuffleIds, String scheme, List<ExecutorSlots> executorOfReducer) {
    this(
        shuffleIds,
        scheme,
        executorOfReducer,
        ReduceTaskRanges.oneEach(executorOfReducer.size()),
        1);
  }

  /** The executor chosen for reduce partition {@code reducer}. */
  public ExecutorSlots executorOf(int reducer) {
    return executorOfReducer.get(reducer);
  }

  /** The executor chosen for the stage's task {@code task}. */
  public ExecutorSlots executorOfTask(int task) {
    return executorOfReducer.get(tasks.first(task));
  }
}
