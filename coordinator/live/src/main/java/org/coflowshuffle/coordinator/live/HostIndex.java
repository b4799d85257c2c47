/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.coflowshuffle.core.model.Host;

/**
 * The hosts of one decision: every live executor, then executors that hold map output but are no
 * longer registered (they may still serve it, but take no reducers). Indices are valid for this
 * decision only, since executors come and go between decisions.
 */
final class HostIndex {

  private final List<Host> hosts = new ArrayList<>();
  private final List<ExecutorSlots> executors = new ArrayList<>();
  private final Map<String, Integer> indexById = new HashMap<>();
  private final double bytesPerSecond;

  /**
   * @param live the registered executors
   * @param reducers reducers to place plus those of other stages that hold or wait for a slot; with
   *     more than all cores together, each executor gets slots for as many waves as needed
   * @param inOfHost bytes per second a machine's link carries in, by host name
   * @param outOfHost bytes per second a machine's link carries out, by host name
   * @param bytesPerSecond bandwidth of executors no longer registered (their host is unknown)
   */
  HostIndex(
      Collection<ExecutorSlots> live,
      int reducers,
      ToDoubleFunction<String> inOfHost,
      ToDoubleFunction<String> outOfHost,
      double bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
    long cores = 0;
    for (ExecutorSlots e : live) {
      cores += e.cores();
    }
    long waves = Math.max(1, (reducers + cores - 1) / Math.max(1, cores));
    for (ExecutorSlots e : live) {
      int slots = (int) Math.min(Integer.MAX_VALUE - 1L, e.cores() * waves);
      indexById.put(e.executorId(), hosts.size());
      hosts.add(
          new Host(
              e.executorId(),
              inOfHost.applyAsDouble(e.host()),
              outOfHost.applyAsDouble(e.host()),
              slots,
              true));
      executors.add(e);
    }
  }

  /** Index of a registered executor, or -1. */
  int indexOf(String executorId) {
    Integer i = indexById.get(executorId);
    return i == null || i >= executors.size() ? -1 : i;
  }

  /** Index of the executor, adding it as a send-only host when it is not registered. */
  int indexOrSender(String executorId) {
    return indexById.computeIfAbsent(
        executorId,
        id -> {
          hosts.add(Host.sender(id, bytesPerSecond));
          return hosts.size() - 1;
        });
  }

  /** The registered executor at index {@code h}. */
  ExecutorSlots executor(int h) {
    return executors.get(h);
  }

  List<Host> hosts() {
    return List.copyOf(hosts);
  }

  int size() {
    return hosts.size();
  }
}
