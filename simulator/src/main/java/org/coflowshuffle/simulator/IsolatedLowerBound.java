/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;

/**
 * A completion time no scheme can beat for a coflow, even alone on the cluster and with the best
 * placement: LP (3)'s relaxation (all reducer hosts merged into one), the largest reducer on the
 * fastest host, and the senders that cannot keep any of their bytes local. Each reducer is credited
 * with the most of its input it could find on one host. Summed over coflows it says how far a
 * scheme is from the limit.
 */
public final class IsolatedLowerBound {

  private IsolatedLowerBound() {}

  /** Seconds, from the coflow's arrival. */
  public static double of(Coflow coflow, List<Host> hosts) {
    return of(coflow, hosts, remoteBytes(coflow, hosts));
  }

  /** As {@link #of(Coflow, List)}, given the coflow's {@link #remoteBytes}. */
  public static double of(Coflow coflow, List<Host> hosts, double[] remote) {
    double sumIn = 0;
    double maxIn = 0;
    for (Host h : hosts) {
      if (h.acceptsReducers()) {
        sumIn += h.inBytesPerSec();
        maxIn = Math.max(maxIn, h.inBytesPerSec());
      }
    }
    double total = 0;
    double largest = 0;
    for (double r : remote) {
      total += r;
      largest = Math.max(largest, r);
    }
    double bound = total > 0 ? total / sumIn : 0;
    bound = Math.max(bound, largest > 0 ? largest / maxIn : 0);
    double[] sent = new double[hosts.size()];
    for (Flow f : coflow.flows()) {
      sent[f.src()] += f.bytes();
    }
    for (int u = 0; u < sent.length; u++) {
      Host h = hosts.get(u);
      if (sent[u] > 0 && !h.acceptsReducers()) {
        bound = Math.max(bound, sent[u] / h.outBytesPerSec());
      }
    }
    return bound;
  }

  /**
   * Per reducer, the bytes that cross the network wherever it runs: its input less the most of it
   * that one host that may run it (or its pinned host) holds.
   */
  public static double[] remoteBytes(Coflow coflow, List<Host> hosts) {
    int reducers = coflow.reducers().size();
    double[] work = new double[reducers];
    List<Map<Integer, Double>> bySource = new java.util.ArrayList<>(reducers);
    for (int n = 0; n < reducers; n++) {
      bySource.add(new HashMap<>());
    }
    for (Flow f : coflow.flows()) {
      work[f.reducer()] += f.bytes();
      bySource.get(f.reducer()).merge(f.src(), f.bytes(), Double::sum);
    }
    double[] remote = new double[reducers];
    for (int n = 0; n < reducers; n++) {
      double local = 0; // the most of its input one host that may run it could keep local
      for (Map.Entry<Integer, Double> e : bySource.get(n).entrySet()) {
        if (hosts.get(e.getKey()).acceptsReducers()
            || e.getKey() == coflow.reducers().get(n).pinnedHost()) {
          local = Math.max(local, e.getValue());
        }
      }
      remote[n] = work[n] - local;
    }
    return remote;
  }
}
