/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.RemainingTotals;

/**
 * Per-host bandwidth arithmetic the schemes share: fresh arrays of what is left to hand out, a
 * coflow's load on each link, and the time it needs alone on what is left (its effective
 * bottleneck, Varys' and FCA's measure).
 */
final class Bandwidth {

  private Bandwidth() {}

  /** Outgoing bytes per second of every host, a fresh array the caller may spend. */
  static double[] outgoing(ClusterView view) {
    return outgoing(view.hosts());
  }

  /** Outgoing bytes per second of every host, a fresh array the caller may spend. */
  static double[] outgoing(List<Host> hosts) {
    double[] out = new double[hosts.size()];
    for (int j = 0; j < out.length; j++) {
      out[j] = hosts.get(j).outBytesPerSec();
    }
    return out;
  }

  /** Incoming bytes per second of every host, a fresh array the caller may spend. */
  static double[] incoming(ClusterView view) {
    return incoming(view.hosts());
  }

  /** Incoming bytes per second of every host, a fresh array the caller may spend. */
  static double[] incoming(List<Host> hosts) {
    double[] in = new double[hosts.size()];
    for (int j = 0; j < in.length; j++) {
      in[j] = hosts.get(j).inBytesPerSec();
    }
    return in;
  }

  /**
   * Adds the bytes {@code a} still sends into and out of each host under {@code hostOf}. Where the
   * caller kept the coflow's totals, every reducer has a host and none of those hosts still sends
   * the coflow anything (no flow is local), the loads are the totals themselves: O(reducers +
   * hosts) instead of a pass over every flow, equal up to the order of summation.
   */
  static void loads(ActiveCoflow a, int[] hostOf, double[] in, double[] out) {
    RemainingTotals totals = a.totals();
    if (totals != null && totals.perSource().length >= out.length && noneLocal(hostOf, totals)) {
      double[] perReducer = totals.perReducer();
      for (int r = 0; r < perReducer.length; r++) {
        in[hostOf[r]] += perReducer[r];
      }
      double[] perSource = totals.perSource();
      for (int u = 0; u < out.length; u++) {
        out[u] += perSource[u];
      }
      return;
    }
    double[] remaining = a.remaining();
    for (int k = 0; k < remaining.length; k++) {
      if (a.crossesNetwork(k, hostOf)) {
        in[hostOf[a.flowReducer()[k]]] += remaining[k];
        out[a.flowSource()[k]] += remaining[k];
      }
    }
  }

  /** Every reducer has a host, and no host of a reducer has bytes of the coflow left to send. */
  private static boolean noneLocal(int[] hostOf, RemainingTotals totals) {
    double[] perSource = totals.perSource();
    for (int h : hostOf) {
      if (h < 0 || perSource[h] > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Time to move the loads {@code in}/{@code out} on the free bandwidth {@code freeIn}/{@code
   * freeOut}: 0 for no load, infinite where a loaded link has nothing free.
   */
  static double bottleneck(double[] in, double[] out, double[] freeIn, double[] freeOut) {
    double gamma = 0;
    for (int j = 0; j < in.length; j++) {
      gamma = Math.max(gamma, ratio(in[j], freeIn[j]));
      gamma = Math.max(gamma, ratio(out[j], freeOut[j]));
    }
    return gamma;
  }

  private static double ratio(double bytes, double bandwidth) {
    return bytes <= 0 ? 0 : bandwidth > 1e-9 ? bytes / bandwidth : Double.POSITIVE_INFINITY;
  }
}
