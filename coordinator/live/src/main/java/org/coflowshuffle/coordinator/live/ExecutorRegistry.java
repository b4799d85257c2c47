/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The registered executors, each on the link of the machine it runs on: the configured speed of
 * that machine (or every machine's), less what other traffic takes there as a broker reports. The
 * model's hosts for a decision come from here ({@link #hostIndex}). Not thread-safe: {@link
 * LiveCoordinator} guards it.
 */
final class ExecutorRegistry {

  private static final double[] FULL = {1, 1};

  private final double bytesPerSecond;
  private final Map<String, Double> hostBytesPerSecond;

  /** Per host, the share of its link that other traffic leaves (1 unless a broker reported). */
  private final Map<String, double[]> freeShare = new HashMap<>();

  private final Map<String, ExecutorSlots> executors = new LinkedHashMap<>();

  /**
   * @param bytesPerSecond bandwidth of every machine's link, each way, unless named below
   * @param hostBytesPerSecond bandwidth by host name, each way
   * @throws IllegalArgumentException for a bandwidth that is not positive
   */
  ExecutorRegistry(double bytesPerSecond, Map<String, Double> hostBytesPerSecond) {
    requirePositive("executor bandwidth", bytesPerSecond);
    hostBytesPerSecond.forEach((host, bw) -> requirePositive("bandwidth of " + host, bw));
    this.bytesPerSecond = bytesPerSecond;
    this.hostBytesPerSecond = Map.copyOf(hostBytesPerSecond);
  }

  private static void requirePositive(String what, double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException(what + " must be > 0 bytes/s: " + bytesPerSecond);
    }
  }

  void add(ExecutorSlots executor) {
    executors.put(executor.executorId(), executor);
  }

  void remove(String executorId) {
    executors.remove(executorId);
  }

  boolean isEmpty() {
    return executors.isEmpty();
  }

  /** The registered executors, in the order they joined. */
  Collection<ExecutorSlots> all() {
    return executors.values();
  }

  /** The host an executor runs on; the executor's id when it is not registered. */
  String hostOf(String executorId) {
    ExecutorSlots e = executors.get(executorId);
    return e == null ? executorId : e.host();
  }

  /** The hosts of one decision that places {@code reducers} reducers (see {@link HostIndex}). */
  HostIndex hostIndex(int reducers) {
    return new HostIndex(
        executors.values(),
        reducers,
        host -> link(host) * freeShare.getOrDefault(host, FULL)[0],
        host -> link(host) * freeShare.getOrDefault(host, FULL)[1],
        bytesPerSecond);
  }

  private double link(String host) {
    return hostBytesPerSecond.getOrDefault(host, bytesPerSecond);
  }

  /**
   * Records what a host's links carry besides shuffles (see {@link LiveCoordinator#otherTraffic}).
   *
   * @return whether the share left for shuffles changed
   */
  boolean otherTraffic(
      String host, double inBytesPerSecond, double outBytesPerSecond, double minShare) {
    double link = link(host);
    double[] share = {
      Math.max(minShare, 1 - inBytesPerSecond / link),
      Math.max(minShare, 1 - outBytesPerSecond / link)
    };
    share[0] = Math.min(1, share[0]);
    share[1] = Math.min(1, share[1]);
    if (Arrays.equals(share, freeShare.getOrDefault(host, FULL))) {
      return false;
    }
    freeShare.put(host, share);
    return true;
  }

  /** The bytes per second a host's links leave for shuffles, in and out. */
  double[] left(String host) {
    double link = link(host);
    double[] share = freeShare.getOrDefault(host, FULL);
    return new double[] {link * share[0], link * share[1]};
  }
}
