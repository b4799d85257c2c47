/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.coflowshuffle.core.model.Host;

/**
 * The registered executors, each on the link of the machine it runs on: its configured speed (that
 * machine's or every machine's), else its NIC's; when links are measured, what its transfers showed
 * it carries below that ({@link LinkEstimates}); less what other traffic takes there as a broker
 * reports; decisions plan on {@link LinkHeadroom#PLANNED_SHARE} of that. The model's hosts for a
 * decision come from here ({@link #hostIndex}). Not thread-safe: {@link LiveCoordinator} guards it.
 */
final class ExecutorRegistry {

  private static final double[] FULL = {1, 1};

  /** Every machine's link, each way, unless named below; NaN where none is set (the NIC's is). */
  private final double bytesPerSecond;

  private final Map<String, Double> hostBytesPerSecond;

  /** Whether links are measured below their nominal speed, not taken at it. */
  private final boolean measure;

  private final LinkEstimates estimates = new LinkEstimates();

  /** Per host, the share of its link that other traffic leaves (1 unless a broker reported). */
  private final Map<String, double[]> freeShare = new HashMap<>();

  private final Map<String, ExecutorSlots> executors = new LinkedHashMap<>();

  /** NIC speeds by executor, kept for an executor that reports before it registers. */
  private final Map<String, Double> nics = new HashMap<>();

  /**
   * @param bytesPerSecond bandwidth of every machine's link, each way, unless named below; NaN for
   *     each machine's NIC speed
   * @param hostBytesPerSecond bandwidth by host name, each way
   * @param measure whether each link is measured below that speed from what its transfers achieve
   * @throws IllegalArgumentException for a bandwidth that is not positive
   */
  ExecutorRegistry(double bytesPerSecond, Map<String, Double> hostBytesPerSecond, boolean measure) {
    this.measure = measure;
    if (!Double.isNaN(bytesPerSecond)) {
      requirePositive("executor bandwidth", bytesPerSecond);
    }
    hostBytesPerSecond.forEach((host, bw) -> requirePositive("bandwidth of " + host, bw));
    this.bytesPerSecond = bytesPerSecond;
    this.hostBytesPerSecond = Map.copyOf(hostBytesPerSecond);
  }

  private static void requirePositive(String what, double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException(what + " must be > 0 bytes/s: " + bytesPerSecond);
    }
  }

  /**
   * @return whether the links the schemes see changed (a NIC speed reported before it came)
   */
  boolean add(ExecutorSlots executor) {
    executors.put(executor.executorId(), executor);
    estimates.nominal(executor.machine(), configured(executor.host())); // NaN: not configured
    Double nic = nics.get(executor.executorId());
    return nic != null && nicSpeed(executor.executorId(), nic);
  }

  void remove(String executorId) {
    executors.remove(executorId);
    nics.remove(executorId);
  }

  boolean has(String executorId) {
    return executors.containsKey(executorId);
  }

  boolean isEmpty() {
    return executors.isEmpty();
  }

  /** The registered executors, in the order they joined. */
  Collection<ExecutorSlots> all() {
    return executors.values();
  }

  /** The machine an executor runs on; the executor's id when it is not registered. */
  String machineOf(String executorId) {
    ExecutorSlots e = executors.get(executorId);
    return e == null ? executorId : e.machine();
  }

  /** The hosts of one decision that places {@code reducers} reducers (see {@link HostIndex}). */
  HostIndex hostIndex(int reducers) {
    return new HostIndex(
        executors.values(),
        reducers,
        e -> planned(e.host(), e.machine(), LinkEstimates.IN),
        e -> planned(e.host(), e.machine(), LinkEstimates.OUT),
        id -> planned(id, id, LinkEstimates.OUT));
  }

  /** What decisions plan on a link: what it leaves for shuffles, less {@link LinkHeadroom}. */
  private double planned(String host, String machine, int direction) {
    return left(host, machine, direction) * LinkHeadroom.PLANNED_SHARE;
  }

  /** Whether no setting gives a host's link speed, so that its NIC's is taken. */
  private boolean unset(String host) {
    return Double.isNaN(configured(host));
  }

  /** The configured speed of a host's link, each way; NaN where none is. */
  private double configured(String host) {
    return hostBytesPerSecond.getOrDefault(host, bytesPerSecond);
  }

  private double link(String host, String machine, int direction) {
    if (!measure && !unset(host)) {
      return configured(host);
    }
    if (!estimates.known(machine)) {
      estimates.nominal(machine, configured(host)); // a sender known only by its id
    }
    return estimates.effective(machine, direction);
  }

  private double left(String host, String machine, int direction) {
    return link(host, machine, direction) * freeShare.getOrDefault(host, FULL)[direction];
  }

  /**
   * An executor's NIC speed, bytes per second: the most its machine's links are taken to carry
   * where no setting gives them. Kept until the executor registers.
   *
   * @return whether the links the schemes see changed
   */
  boolean nicSpeed(String executorId, double bytesPerSecond) {
    if (nics.size() < 100_000 || nics.containsKey(executorId)) { // bounded, whatever is sent
      nics.put(executorId, bytesPerSecond);
    }
    ExecutorSlots e = executors.get(executorId);
    if (e == null || !unset(e.host())) {
      return false;
    }
    double before = estimates.effective(e.machine(), LinkEstimates.IN);
    estimates.nicSpeed(e.machine(), bytesPerSecond);
    return estimates.effective(e.machine(), LinkEstimates.IN) != before;
  }

  /**
   * A decision's rates through each host's links, {@code load[h]} in and out for {@code hosts[h]},
   * and {@code between} hosts (see {@link LinkEstimates#planned}); nothing to do unless links are
   * measured.
   */
  void planned(
      double now,
      List<Host> hosts,
      double[][] load,
      Supplier<Map<String, Map<String, Double>>> between) {
    if (measure) {
      Map<String, double[]> byMachine = new HashMap<>();
      for (int h = 0; h < hosts.size(); h++) {
        byMachine.put(hosts.get(h).id(), load[h]);
      }
      estimates.planned(now, byMachine, between.get());
    }
  }

  /**
   * A flow between two machines delivered {@code bytes}.
   *
   * @return whether a measured link's estimate changed
   */
  boolean delivered(String from, String to, double bytes, double now) {
    if (!measure) {
      return false;
    }
    estimates.delivered(from, to, bytes);
    return estimates.tick(now);
  }

  /**
   * What the interface of an executor's machine has carried, as the executor read its counters at
   * {@code seconds} (see {@link LinkEstimates#counted}); nothing to do unless links are measured.
   *
   * @return whether a measured link's estimate changed
   */
  boolean counted(String executorId, double seconds, double received, double sent, double now) {
    ExecutorSlots e = executors.get(executorId);
    if (!measure || e == null) {
      return false;
    }
    return estimates.counted(e.machine(), seconds, received, sent, now);
  }

  /**
   * Per machine with a registered executor whose link is measured or taken from its NIC, the
   * bandwidth it is taken to leave for shuffles each way, then to carry in all, bytes per second
   * (see {@link LinkEstimates#estimates}).
   */
  Map<String, double[]> measured() {
    Map<String, double[]> out = new TreeMap<>(estimates.estimates());
    out.keySet()
        .retainAll(
            executors.values().stream()
                .filter(e -> measure || unset(e.host()))
                .map(ExecutorSlots::machine)
                .toList());
    return out;
  }

  /**
   * Records what a host's links carry besides shuffles (see {@link LiveCoordinator#otherTraffic}).
   *
   * @return whether the share left for shuffles changed
   */
  boolean otherTraffic(
      String host, double inBytesPerSecond, double outBytesPerSecond, double minShare) {
    double[] share = {
      Math.max(minShare, 1 - inBytesPerSecond / link(host, host, LinkEstimates.IN)),
      Math.max(minShare, 1 - outBytesPerSecond / link(host, host, LinkEstimates.OUT))
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
    return new double[] {left(host, host, LinkEstimates.IN), left(host, host, LinkEstimates.OUT)};
  }
}
