/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;

/**
 * An average CCT that no scheme can beat on an instance, however it places and paces: every byte
 * that must cross the network (each reducer's input less the most of it one host could keep local)
 * goes out of some host's port and into a host that may run reducers (or has one pinned), so
 * together the coflows receive at most C = min(sum of those hosts' incoming bandwidth, sum of all
 * outgoing bandwidth) bytes per second. With all ports merged into one link of rate C, the least
 * sum of completion times under arrivals is shortest remaining bytes first (SRPT, optimal on one
 * machine with preemption), computed here exactly. Where coflows queue for the cluster, this is far
 * tighter than the sum of isolated bounds ({@link IsolatedLowerBound}), which each coflow could
 * meet only alone.
 */
public final class PooledSrptBound {

  private PooledSrptBound() {}

  /** Seconds: the least possible sum, over the instance's coflows, of completion minus arrival. */
  public static double sumOfCcts(Instance instance) {
    List<Coflow> coflows = instance.coflows();
    double[] crossing = new double[coflows.size()];
    for (int i = 0; i < crossing.length; i++) {
      crossing[i] =
          Arrays.stream(IsolatedLowerBound.remoteBytes(coflows.get(i), instance.hosts())).sum();
    }
    return sumOfCcts(instance, crossing);
  }

  /**
   * As {@link #sumOfCcts(Instance)}, given per coflow the bytes that must cross the network (the
   * sum of its {@link IsolatedLowerBound#remoteBytes}).
   */
  public static double sumOfCcts(Instance instance, double[] crossing) {
    List<Host> hosts = instance.hosts();
    boolean[] receives = new boolean[hosts.size()]; // may run reducers, or has one pinned
    for (Coflow c : instance.coflows()) {
      for (var r : c.reducers()) {
        if (r.pinnedHost() >= 0) {
          receives[r.pinnedHost()] = true;
        }
      }
    }
    double in = 0;
    double out = 0;
    for (int j = 0; j < receives.length; j++) {
      Host h = hosts.get(j);
      in += h.acceptsReducers() || receives[j] ? h.inBytesPerSec() : 0;
      out += h.outBytesPerSec();
    }
    double rate = Math.min(in, out);
    List<Coflow> coflows = instance.coflows();
    int n = coflows.size();
    double[] left = crossing.clone();
    Integer[] byArrival = new Integer[n];
    Arrays.setAll(byArrival, i -> i);
    Arrays.sort(byArrival, Comparator.comparingDouble(i -> coflows.get(i).arrival()));
    PriorityQueue<Integer> queue = new PriorityQueue<>(Comparator.comparingDouble(i -> left[i]));
    double now = 0;
    double sum = 0;
    int next = 0;
    while (next < n || !queue.isEmpty()) {
      if (queue.isEmpty()) {
        now = Math.max(now, coflows.get(byArrival[next]).arrival());
      }
      while (next < n && coflows.get(byArrival[next]).arrival() <= now) {
        queue.add(byArrival[next++]);
      }
      int i = queue.poll();
      double done = now + (left[i] > 0 ? left[i] / rate : 0);
      double arrival = next < n ? coflows.get(byArrival[next]).arrival() : Double.POSITIVE_INFINITY;
      if (done <= arrival) {
        now = done;
        sum += now - coflows.get(i).arrival();
      } else { // preempted, perhaps, by the next arrival
        left[i] -= (arrival - now) * rate;
        now = arrival;
        queue.add(i);
      }
    }
    return sum;
  }
}
