/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.junit.jupiter.api.Test;

class MachineExecutorsTest {

  @Test
  void aTaskMayRunOnAnyExecutorOfTheMachineItWasPlacedOnTheChosenOneFirst() {
    MachineExecutors m = new MachineExecutors();
    ExecutorSlots a = new ExecutorSlots("1", "h1", 3);
    m.added(a);
    m.added(new ExecutorSlots("2", "h2", 3));
    m.added(new ExecutorSlots("3", "h1", 3));
    assertEquals(List.of("executor_h1_1", "executor_h1_3"), m.locations(a));
    assertEquals(
        List.of("executor_h1_3", "executor_h1_1"), m.locations(new ExecutorSlots("3", "h1", 3)));
    assertEquals(List.of("executor_h2_2"), m.locations(new ExecutorSlots("2", "h2", 3)));
    m.removed("3");
    assertEquals(List.of("executor_h1_1"), m.locations(a));
  }

  @Test
  void executorsThatStandForMachinesOfTheirOwnAreNamedAlone() {
    MachineExecutors m = new MachineExecutors(); // local-cluster: one host, a machine each
    ExecutorSlots a = new ExecutorSlots("1", "h1", 1).alone();
    m.added(a);
    m.added(new ExecutorSlots("2", "h1", 1).alone());
    assertEquals(List.of("executor_h1_1"), m.locations(a));
  }

  @Test
  void anExecutorToComeOrUnknownIsNamedAsPlaced() {
    MachineExecutors m = new MachineExecutors();
    m.added(new ExecutorSlots("1", "h1", 2));
    assertEquals(
        List.of("h1"), m.locations(new ExecutorSlots(GrowingCluster.PREFIX + "h1", "h1", 2)));
    assertEquals(List.of("executor_h1_9"), m.locations(new ExecutorSlots("9", "h1", 2)));
  }
}
