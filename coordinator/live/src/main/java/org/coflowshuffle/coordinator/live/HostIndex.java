/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.coflowshuffle.core.model.Host;

/**
 * The hosts of one decision: every machine with a live executor, its executors sharing its links
 * and adding up their cores, then executors that hold map output but are no longer registered (they
 * may still serve it, but take no reducers). Indices are valid for this decision only, since
 * executors come and go between decisions.
 */
final class HostIndex {

  private final List<Host> hosts = new ArrayList<>();
  private final List<List<ExecutorSlots>> executors = new ArrayList<>();
  private final Map<String, Integer> indexById = new HashMap<>();
  private final ToDoubleFunction<String> senderOut;

  /**
   * @param live the registered executors
   * @param reducers reducers to place plus those of other stages that hold or wait for a slot; with
   *     more than all cores together, each executor gets slots for as many waves as needed
   * @param inOf bytes per second the link of an executor's machine carries in
   * @param outOf bytes per second the link of an executor's machine carries out
   * @param senderOut bytes per second out of an executor no longer registered, by its id
   */
  HostIndex(
      Collection<ExecutorSlots> live,
      int reducers,
      ToDoubleFunction<ExecutorSlots> inOf,
      ToDoubleFunction<ExecutorSlots> outOf,
      ToDoubleFunction<String> senderOut) {
    this.senderOut = senderOut;
    long cores = 0;
    Map<String, List<ExecutorSlots>> byMachine = new LinkedHashMap<>();
    for (ExecutorSlots e : live) {
      cores += e.cores();
      byMachine.computeIfAbsent(e.machine(), m -> new ArrayList<>()).add(e);
    }
    long waves = Math.max(1, (reducers + cores - 1) / Math.max(1, cores));
    byMachine.forEach(
        (machine, on) -> {
          long slots = 0;
          for (ExecutorSlots e : on) {
            slots += e.cores() * waves;
            indexById.put(e.executorId(), hosts.size());
          }
          hosts.add(
              new Host(
                  machine,
                  inOf.applyAsDouble(on.get(0)),
                  outOf.applyAsDouble(on.get(0)),
                  (int) Math.min(Integer.MAX_VALUE - 1L, slots),
                  true));
          executors.add(List.copyOf(on));
        });
  }

  /** Index of the machine a registered executor runs on, or -1. */
  int indexOf(String executorId) {
    Integer i = indexById.get(executorId);
    return i == null || i >= executors.size() ? -1 : i;
  }

  /**
   * Index of the machine of the executor, adding the executor as a send-only host when it is not
   * registered.
   */
  int indexOrSender(String executorId) {
    return indexById.computeIfAbsent(
        executorId,
        id -> {
          hosts.add(Host.sender(id, senderOut.applyAsDouble(id)));
          return hosts.size() - 1;
        });
  }

  /** The registered executors on the machine at index {@code h}, in the order they joined. */
  List<ExecutorSlots> executors(int h) {
    return executors.get(h);
  }

  /** Number of machines with registered executors: indices below it accept reducers. */
  int machines() {
    return executors.size();
  }

  List<Host> hosts() {
    return List.copyOf(hosts);
  }

  int size() {
    return hosts.size();
  }
}
