/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.Decision;

/**
 * The largest share of one host's link, in or out, that the rates of any decision so far planned:
 * the check, at every decision, that the flows of all executors on a machine together stay within
 * what the decisions plan on its link, {@link LinkHeadroom#PLANNED_SHARE} of it (above that, the
 * transport would be asked for more than the link carries both ways). Not thread-safe: {@link
 * LiveCoordinator} guards it.
 */
final class LinkUsePeak {

  private double peak;
  private String where = "";

  /** One flow of a decision that crosses the network: host indexes and its rate. */
  private interface NetworkFlow {
    void accept(int from, int to, double rate);
  }

  /** Calls {@code f} for every flow of the decision over {@code active} planned across hosts. */
  private static void forEachNetworkFlow(List<ActiveCoflow> active, Decision d, NetworkFlow f) {
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      double[] rates = d.assignments().get(i).rates();
      for (int k = 0; rates != null && k < rates.length; k++) {
        if (a.crossesNetwork(k, a.hostOf()) && rates[k] > 0) {
          f.accept(a.flowSource()[k], a.hostOf()[a.flowReducer()[k]], rates[k]);
        }
      }
    }
  }

  /**
   * What a decision over {@code active} plans through each host's links: per host index, the sum of
   * the rates of the flows that cross the network into it (at 0) and out of it (at 1).
   */
  static double[][] load(int hosts, List<ActiveCoflow> active, Decision d) {
    double[][] load = new double[hosts][2];
    forEachNetworkFlow(
        active,
        d,
        (from, to, rate) -> {
          load[from][1] += rate;
          load[to][0] += rate;
        });
    return load;
  }

  /**
   * What a decision over {@code active} plans between hosts: per host the flows cross the network
   * from, per host they go to, the sum of their rates.
   */
  static Map<String, Map<String, Double>> between(
      List<Host> hosts, List<ActiveCoflow> active, Decision d) {
    Map<String, Map<String, Double>> between = new HashMap<>();
    forEachNetworkFlow(
        active,
        d,
        (from, to, rate) ->
            between
                .computeIfAbsent(hosts.get(from).id(), h -> new HashMap<>())
                .merge(hosts.get(to).id(), rate, Double::sum));
    return between;
  }

  /**
   * Adds one decision's {@link #load} on {@code hosts}, whose bandwidths are what the decision
   * planned on: {@link LinkHeadroom#PLANNED_SHARE} of each link.
   */
  void add(List<Host> hosts, double[][] load) {
    for (int h = 0; h < hosts.size(); h++) {
      Host host = hosts.get(h);
      note(load[h][0] / host.inBytesPerSec() * LinkHeadroom.PLANNED_SHARE, host.id() + " in");
      note(load[h][1] / host.outBytesPerSec() * LinkHeadroom.PLANNED_SHARE, host.id() + " out");
    }
  }

  private void note(double share, String link) {
    if (share > peak) { // NaN (0 of a link of 0) never is
      peak = share;
      where = link;
    }
  }

  /** E.g. {@code 99.8% (h3 in)}; {@code 0.0%} before any rate was planned. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f%%", 100 * peak)
        + (where.isEmpty() ? "" : " (" + where + ")");
  }

  double peak() {
    return peak;
  }
}
