/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.rpc.RpcEndpointRef;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's orders to executors (the executor side: {@code DriverOrders}). When a flow ends, or
 * a stage is placed, every executor asks the rates of its flows at once, so that what one flow
 * leaves of a link, or a shorter coflow needs, changes hands now rather than at each executor's
 * next refresh (up to 200 ms later). As a reduce stage is placed, each executor is told which of
 * its reducers to fetch before their tasks start. A task starts only once a core is free on its
 * executor and then asks the driver for its map output locations; the coflow's flows, planned from
 * the stage's submission, would wait for all of that.
 *
 * <p>Only a task that reads one reducer, placed on an executor alone on its machine: a task that
 * reads several may fetch them in batches, and one placed on a machine of several executors may
 * start on another of them; either would find nothing fetched for it and fetch the same bytes
 * again.
 */
final class ExecutorOrders {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorOrders.class);

  private final Map<String, RpcEndpointRef> executors = new ConcurrentHashMap<>();

  /** An executor takes orders at {@code ref}. */
  void register(String executorId, RpcEndpointRef ref) {
    executors.put(executorId, ref);
  }

  void removed(String executorId) {
    executors.remove(executorId);
  }

  /**
   * Sends the orders of a stage's placement, {@code machines} telling which executors are alone on
   * theirs; returns how many reducers were ordered.
   */
  int placed(ShufflePlacement placement, MachineExecutors machines) {
    ReduceTaskRanges tasks = placement.tasks();
    int sent = 0;
    for (int t = 0; t < tasks.tasks(); t++) {
      if (tasks.end(t) - tasks.first(t) != 1) {
        continue;
      }
      ExecutorSlots on = placement.executorOfTask(t);
      RpcEndpointRef ref = executors.get(on.executorId());
      if (ref == null || machines.locations(on).size() != 1) {
        continue;
      }
      for (int shuffleId : placement.shuffleIds()) {
        try {
          ref.send(new int[] {shuffleId, tasks.first(t)});
          sent++;
        } catch (RuntimeException e) { // the executor is gone: its task fetches, if it runs
          LOG.debug("coflow: no order to executor {}", on.executorId(), e);
        }
      }
    }
    askRatesNow();
    return sent;
  }

  /** Every executor asks the rates of its flows now (one with none does nothing). */
  void askRatesNow() {
    executors.forEach(
        (id, ref) -> {
          try {
            ref.send(new int[0]);
          } catch (RuntimeException e) {
            LOG.debug("coflow: no order to executor {}", id, e);
          }
        });
  }

  /** Executors taking orders now, for the driver's footprint. */
  int size() {
    return executors.size();
  }
}
