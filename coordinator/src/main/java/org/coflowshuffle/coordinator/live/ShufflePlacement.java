package org.coflowshuffle.coordinator.live;

import java.util.List;

/**
 * Where each reducer of one shuffle runs, as decided once its map output was complete.
 *
 * @param shuffleId the shuffle
 * @param scheme the scheme that decided it
 * @param executorOfReducer per reduce partition, the executor chosen for it
 */
public record ShufflePlacement(
    int shuffleId, String scheme, List<ExecutorSlots> executorOfReducer) {

  public ShufflePlacement {
    executorOfReducer = List.copyOf(executorOfReducer);
  }

  /** The executor chosen for reduce partition {@code reducer}. */
  public ExecutorSlots executorOf(int reducer) {
    return executorOfReducer.get(reducer);
  }
}
