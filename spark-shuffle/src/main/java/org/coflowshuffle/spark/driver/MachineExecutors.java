/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.coflowshuffle.coordinator.live.ExecutorSlots;

/**
 * The executors of each machine, for where a reduce task placed on one of them may run. The model
 * places reducers on machines (executors on one share its links and add up their cores); the
 * executor chosen is the one with the most free cores when the stage is placed. Named alone, it
 * holds the task for {@code spark.locality.wait} whenever its cores are still busy (another job's
 * tasks, a stage that ends later than planned), while an executor beside it on the same machine may
 * be idle. So a task is given every executor of its machine as process-local locations, the chosen
 * one first: it starts on whichever frees a core first, and never on another machine before Spark's
 * wait runs out. Where each executor stands for a machine of its own ({@code local-cluster}), that
 * is the chosen executor alone.
 */
final class MachineExecutors {

  /** Executors by machine, each list in the order they came; changed only as executors come. */
  private final Map<String, List<ExecutorSlots>> byMachine = new ConcurrentHashMap<>();

  private final Map<String, ExecutorSlots> byId = new ConcurrentHashMap<>();

  void added(ExecutorSlots e) {
    removed(e.executorId());
    byId.put(e.executorId(), e);
    byMachine.computeIfAbsent(e.machine(), m -> new CopyOnWriteArrayList<>()).add(e);
  }

  void removed(String executorId) {
    ExecutorSlots e = byId.remove(executorId);
    if (e != null) {
      byMachine.computeIfPresent(
          e.machine(),
          (m, list) -> {
            list.remove(e);
            return list.isEmpty() ? null : list;
          });
    }
  }

  /**
   * Spark's locations for a task placed on {@code chosen}: it, then the other executors of its
   * machine; the host alone for an executor still to come ({@link GrowingCluster#location}).
   */
  List<String> locations(ExecutorSlots chosen) {
    List<String> locations = new ArrayList<>();
    locations.add(GrowingCluster.location(chosen));
    ExecutorSlots known = byId.get(chosen.executorId());
    if (known != null) {
      for (ExecutorSlots e : byMachine.getOrDefault(known.machine(), List.of())) {
        if (!e.executorId().equals(chosen.executorId())) {
          locations.add(GrowingCluster.location(e));
        }
      }
    }
    return locations;
  }
}
