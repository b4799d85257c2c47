/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;

/**
 * What a policy sees at one invocation: the time, the hosts (their full bandwidth; nothing is in
 * use between invocations, since every invocation decides all rates anew) and every active coflow
 * in arrival order. The arrays inside are fresh for each invocation and must not be modified.
 *
 * @param slotsInUse per host, reducers already pinned there whose flows are not finished
 * @param fabric the network between the hosts; a policy that cannot route sees only big switches
 * @param slotsFreeing per host, ascending, the times at which slots counted in {@code slotsInUse}
 *     free up soon enough for a new reducer to wait for them (a live cluster, where a task holds
 *     its core after its fetches end and a new task waits a while for the executor it was given); a
 *     reducer placed on such a slot starts then. Empty for none.
 */
public record ClusterView(
    double now,
    List<Host> hosts,
    List<ActiveCoflow> coflows,
    int[] slotsInUse,
    Fabric fabric,
    double[][] slotsFreeing) {

  private static final double[] NONE = {};

  public ClusterView {
    if (slotsFreeing == null) {
      slotsFreeing = new double[hosts.size()][];
      Arrays.fill(slotsFreeing, NONE);
    }
  }

  /** A view where no slot in use frees up in time to wait for. */
  public ClusterView(
      double now, List<Host> hosts, List<ActiveCoflow> coflows, int[] slotsInUse, Fabric fabric) {
    this(now, hosts, coflows, slotsInUse, fabric, null);
  }

  /** A view of hosts on one non-blocking switch. */
  public ClusterView(double now, List<Host> hosts, List<ActiveCoflow> coflows, int[] slotsInUse) {
    this(now, hosts, coflows, slotsInUse, Fabric.bigSwitch(hosts.size()));
  }

  /**
   * Slots a new reducer may take on the host: those free now and those freeing soon ({@link
   * Integer#MAX_VALUE} for unlimited).
   */
  public int slotsFor(int host) {
    int now = hosts.get(host).freeSlots(slotsInUse[host]);
    return now == Integer.MAX_VALUE ? now : now + slotsFreeing[host].length;
  }
}
