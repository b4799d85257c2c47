package org.coflowshuffle.coordinator.live;

import java.util.List;

/**
 * Where each reducer of a stage runs, as decided once the map output of every shuffle it reads was
 * complete. A stage that reads several shuffles (a join) is one coflow: reducer r fetches partition
 * r of each, so all of them share this placement.
 *
 * @param shuffleIds the shuffles the stage reads
 * @param scheme the scheme that decided it
 * @param executorOfReducer per reduce partition, the executor chosen for it
 */
public record ShufflePlacement(
    List<Integer> shuffleIds, String scheme, List<ExecutorSlots> executorOfReducer) {

  public ShufflePlacement {
    shuffleIds = List.copyOf(shuffleIds);
    executorOfReducer = List.copyOf(executorOfReducer);
  }

  /** The executor chosen for reduce partition {@code reducer}. */
  public ExecutorSlots executorOf(int reducer) {
    return executorOfReducer.get(reducer);
  }
}
