/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

/**
 * One executor as the live coordinator sees it: where it runs and how many tasks it runs at once.
 * Each executor is one host of the scheduling model, so that placements name executors even when
 * several share a machine.
 *
 * @param executorId the cluster manager's executor id
 * @param host the machine it runs on
 * @param cores tasks it runs at once, at least 1
 */
public record ExecutorSlots(String executorId, String host, int cores) {

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
  }
}
