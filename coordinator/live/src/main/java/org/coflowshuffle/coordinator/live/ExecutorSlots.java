/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

/**
 * One executor as the live coordinator sees it: where it runs and how many tasks it runs at once.
 * Executors on one {@code machine} are one host of the scheduling model, sharing its links and
 * adding up their cores; placements still name executors.
 *
 * @param executorId the cluster manager's executor id
 * @param host the host Spark knows it by (a placement's task location names it)
 * @param cores tasks it runs at once, at least 1
 * @param machine what it shares links with: its host, except where executors on one host stand for
 *     machines of their own (Spark's {@code local-cluster} mode)
 */
public record ExecutorSlots(String executorId, String host, int cores, String machine) {

  public ExecutorSlots {
    if (executorId == null || executorId.isEmpty()) {
      throw new IllegalArgumentException("executor id must be a non-empty string");
    }
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("executor " + executorId + ": host must be non-empty");
    }
    if (cores < 1) {
      throw new IllegalArgumentException("executor " + executorId + ": cores " + cores);
    }
    if (machine == null || machine.isEmpty()) {
      throw new IllegalArgumentException("executor " + executorId + ": machine must be non-empty");
    }
  }

  /** An executor on its host's machine. */
  public ExecutorSlots(String executorId, String host, int cores) {
    this(executorId, host, cores, host);
  }

  /**
   * The same executor standing for a machine of its own, named {@code host/executorId}: what
   * executors of Spark's {@code local-cluster} mode emulate.
   */
  public ExecutorSlots alone() {
    return new ExecutorSlots(executorId, host, cores, host + "/" + executorId);
  }
}
