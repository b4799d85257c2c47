/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReducerTasksTest {

  /** Reducer 0 of shuffle 1 placed on executor "P"; shuffle 2 placed by Spark. */
  private final ReducerTasks tasks =
      new ReducerTasks(
          (shuffle, reducer) -> shuffle == 1 ? Optional.of("P") : Optional.<String>empty());

  @Test
  void beforeItsTaskStartsOnlyTheEarlyFetchWhereTheReducerWasPlacedCounts() {
    assertTrue(tasks.asks(1, 0, "P"));
    assertFalse(tasks.asks(1, 0, "Q"), "an early fetch for an earlier placement");
    assertTrue(tasks.asks(2, 0, "Q"), "where Spark places, any executor may run it");
  }

  @Test
  void onceStartedOnlyTheExecutorRunningTheTaskCountsUntilItEnds() {
    tasks.started(1, 0, "Q"); // Spark gave up waiting for P
    assertTrue(tasks.asks(1, 0, "Q"));
    assertFalse(tasks.asks(1, 0, "P"), "P's early fetch is dropped");
    tasks.ended(1, 0);
    assertFalse(tasks.asks(1, 0, "Q"), "a fetch that runs on after its task");
    tasks.started(1, 0, "P"); // a retry
    assertTrue(tasks.asks(1, 0, "P"));
    assertFalse(tasks.asks(1, 0, "Q"));
  }

  @Test
  void aStageSubmittedAgainStartsFromItsPlacement() {
    tasks.started(1, 0, "Q");
    tasks.ended(1, 0);
    tasks.started(2, 0, "Q");
    tasks.forget(1);
    assertTrue(tasks.asks(1, 0, "P"));
    assertFalse(tasks.asks(2, 0, "P"), "another shuffle's tasks stay");
  }
}
