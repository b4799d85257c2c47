/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.rpc.RpcEndpointRef;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.DaemonThreads;
import org.coflowshuffle.spark.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's orders to executors (the executor side: {@code DriverOrders}). When a flow ends, or
 * a stage is placed, every executor fetching asks the rates of its flows at once, so that what one
 * flow leaves of a link, or a shorter coflow needs, changes hands now rather than at each
 * executor's next refresh (up to 200 ms later). As a reduce stage is placed, each executor is told
 * which of its reducers to fetch before their tasks start, and from where ({@link Blocks}). A task
 * starts only once a core is free on its executor and then asks the driver for its map output
 * locations; the coflow's flows, planned from the stage's submission, would wait for all of that.
 *
 * <p>Only a task that reads one reducer, placed on an executor alone on its machine: a task that
 * reads several may fetch them in batches, and one placed on a machine of several executors may
 * start on another of them; either would find nothing fetched for it and fetch the same bytes
 * again. Spark may still run a task elsewhere, when the executor it was placed on has no core free
 * for longer than {@code spark.locality.wait}: the executor told to fetch for it is then told to
 * drop that ({@link #taskStarted}), so that the same bytes do not cross the links twice.
 */
final class ExecutorOrders {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorOrders.class);

  /**
   * How long after its last rate question an executor counts as fetching, and so is told to ask
   * again: well past its 200 ms refresh.
   */
  static final long FETCHING_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** How long asks are gathered into one: the flows of a stage end within a few of these. */
  static final long GATHER_MILLIS = 20;

  /** What a reducer's task will fetch, and from where: the order an executor is sent. */
  @FunctionalInterface
  interface Blocks {
    /**
     * The order to fetch reducer {@code reducer} of a shuffle.
     *
     * @throws RuntimeException when its map outputs are not all known (the task finds out itself)
     */
    Messages.FetchOrder order(int shuffleId, int reducer);
  }

  private final Blocks blocks;

  private final Map<String, RpcEndpointRef> executors = new ConcurrentHashMap<>();

  /** The executor told to fetch each reducer ahead ({@link #key}), until its task starts. */
  private final Map<Long, String> ordered = new ConcurrentHashMap<>();

  /** When each executor last asked its rates, {@link System#nanoTime}. */
  private final Map<String, Long> askedAt = new ConcurrentHashMap<>();

  private final AtomicBoolean gathering = new AtomicBoolean();
  private final ScheduledExecutorService sender =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coflow-orders"));

  ExecutorOrders(Blocks blocks) {
    this.blocks = blocks;
  }

  /** An executor takes orders at {@code ref}. */
  void register(String executorId, RpcEndpointRef ref) {
    executors.put(executorId, ref);
  }

  void removed(String executorId) {
    executors.remove(executorId);
    askedAt.remove(executorId);
    ordered.values().removeIf(executorId::equals);
  }

  /** The executor asked the rates of its flows: it is fetching. */
  void asked(String executorId) {
    askedAt.put(executorId, System.nanoTime());
  }

  /**
   * Sends the orders of a stage's placement, {@code machines} telling which executors are alone on
   * theirs.
   */
  void placed(ShufflePlacement placement, MachineExecutors machines) {
    ReduceTaskRanges tasks = placement.tasks();
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
          ref.send(blocks.order(shuffleId, tasks.first(t)).wire());
          ordered.put(ReducerTasks.key(shuffleId, tasks.first(t)), on.executorId());
        } catch (RuntimeException e) { // outputs lost, the executor gone: its task fetches
          LOG.debug("coflow: no order to executor {}", on.executorId(), e);
        }
      }
    }
    askRatesNow();
  }

  /**
   * The task reading reducer {@code reducer} of a shuffle started on {@code executorId}; if another
   * executor was told to fetch it ahead, that one is told to drop it, as {@code int[] {shuffleId,
   * reducer}}.
   */
  void taskStarted(int shuffleId, int reducer, String executorId) {
    String told = ordered.remove(ReducerTasks.key(shuffleId, reducer));
    RpcEndpointRef ref = told == null || told.equals(executorId) ? null : executors.get(told);
    if (ref != null) {
      try {
        ref.send(new int[] {shuffleId, reducer});
      } catch (RuntimeException e) {
        LOG.debug("coflow: no order to executor {}", told, e);
      }
    }
  }

  /** Spark dropped the shuffle: its orders whose tasks never started are forgotten. */
  void forget(int shuffleId) {
    ordered.keySet().removeIf(k -> (int) (k >> 32) == shuffleId);
  }

  /**
   * Every executor fetching now asks the rates of its flows, in {@link #GATHER_MILLIS}: the calls
   * within that time make one order each, so a stage whose flows end together costs one round, and
   * executors with no flow are not asked.
   */
  void askRatesNow() {
    if (!gathering.compareAndSet(false, true)) {
      return;
    }
    try {
      sender.schedule(this::sendAsks, GATHER_MILLIS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      gathering.set(false); // stopping
    }
  }

  private void sendAsks() {
    gathering.set(false);
    long now = System.nanoTime();
    executors.forEach(
        (id, ref) -> {
          Long asked = askedAt.get(id);
          if (asked != null && now - asked < FETCHING_NANOS) {
            try {
              ref.send(new int[0]);
            } catch (RuntimeException e) {
              LOG.debug("coflow: no order to executor {}", id, e);
            }
          }
        });
  }

  /** Stops sending. */
  void stop() {
    sender.shutdownNow();
  }

  /** Executors taking orders now, for the driver's footprint. */
  int size() {
    return executors.size();
  }

  /** Reducers ordered ahead whose tasks have not started, for the driver's footprint. */
  int pending() {
    return ordered.size();
  }
}
