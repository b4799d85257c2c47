/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import org.coflowshuffle.core.util.StableOrder;

/**
 * List scheduling, largest reducer first, each onto the host where it would finish earliest given
 * the bandwidth left over time and what this coflow already sends there, counting the bytes it
 * would find locally. The classic LPT rule for related machines; RPC keeps it as a candidate beside
 * Algorithm 2 because it knows locality, and NEAT uses it with the coflows already queued.
 */
public final class GreedyPlacement implements PlacementMethod {

  @Override
  public void place(
      CoflowDemand d,
      int[] reducers,
      boolean[] eligible,
      double[] loads,
      NetworkProfile net,
      int[] hostOf) {
    double[] load = Arrays.copyOf(loads, loads.length);
    boolean local = d.hasLocality();
    double[] slowness = new double[eligible.length]; // seconds per byte at the fastest rate
    int[] hosts = new int[eligible.length]; // the eligible ones: the loop below is hot
    int count = 0;
    for (int j = 0; j < eligible.length; j++) {
      if (eligible[j]) {
        slowness[j] = 1 / net.in(j).fastestRate();
        hosts[count++] = j;
      }
    }
    hosts = Arrays.copyOf(hosts, count);
    int[] groupEnd = byLoadWithinSpeed(hosts, slowness, local ? null : load);
    int previous = -1;
    for (int n : bySizeDescending(d, reducers)) {
      // A finish some host reaches (the last reducer's): a host that cannot carry the bytes by
      // then even at its fastest rate cannot win, so its profile need not be walked.
      double reached =
          previous < 0
              ? Double.POSITIVE_INFINITY
              : net.in(previous)
                  .timeToCarry(load[previous] + (local ? d.networkBytes(n, previous) : d.work(n)));
      double skipAfter = skipAfter(reached, net.now());
      double work = d.work(n);
      int best = -1;
      int bestAt = -1;
      double bestFinish = Double.POSITIVE_INFINITY;
      double bestRate = -1;
      for (int h = 0; h < count; h++) {
        int j = hosts[h];
        double bytes = load[j] + (local ? d.networkBytes(n, j) : work);
        if (bytes * slowness[j] > skipAfter) {
          h = groupEnd[h] - 1; // the rest of its group, if any, carries no fewer bytes
          continue;
        }
        double finish = net.in(j).timeToCarry(bytes);
        double rate = net.in(j).finalRate();
        if (best < 0
            || finish < bestFinish
            || finish == bestFinish && (rate > bestRate || rate == bestRate && j < best)) {
          best = j;
          bestAt = h;
          bestFinish = finish;
          bestRate = rate;
          skipAfter = Math.min(skipAfter, skipAfter(finish, net.now()));
        }
      }
      hostOf[n] = best;
      load[best] += d.networkBytes(n, best);
      previous = best;
      if (!local) { // the host moves up its group, to its place by its new load
        for (int h = bestAt; h + 1 < groupEnd[h] && before(hosts[h + 1], best, load); h++) {
          hosts[h] = hosts[h + 1];
          hosts[h + 1] = best;
        }
      }
    }
  }

  /**
   * Orders {@code hosts} by their slowness and, with {@code load}, each group of equal slowness by
   * load, then by number; returns per place the end of its group (without {@code load}, every host
   * is a group of its own). In a group, a host's bytes at its fastest rate take no less time than
   * those of the hosts before it, so the loop over the hosts skips the rest of a group at the first
   * that cannot win: where hosts come in a few speeds, most of them are then passed over a group at
   * a time instead of visited one by one only to be skipped.
   */
  private static int[] byLoadWithinSpeed(int[] hosts, double[] slowness, double[] load) {
    int[] groupEnd = new int[hosts.length];
    if (load == null) { // with locality a host's bytes are its own: no order between them
      Arrays.setAll(groupEnd, h -> h + 1);
      return groupEnd;
    }
    double[] key = new double[slowness.length];
    for (int j : hosts) {
      key[j] = -load[j];
    }
    StableOrder.byKeyDescending(hosts, key); // stable: ties keep the ascending numbers
    for (int j : hosts) {
      key[j] = -slowness[j];
    }
    StableOrder.byKeyDescending(hosts, key);
    for (int h = hosts.length - 1; h >= 0; h--) {
      boolean sameAsNext = h + 1 < hosts.length && slowness[hosts[h + 1]] == slowness[hosts[h]];
      groupEnd[h] = sameAsNext ? groupEnd[h + 1] : h + 1;
    }
    return groupEnd;
  }

  /** Whether host a comes before host b in a group: less load, or as much and a lower number. */
  private static boolean before(int a, int b, double[] load) {
    return load[a] < load[b] || load[a] == load[b] && a < b;
  }

  /**
   * Seconds from {@code now} beyond which a host's bytes at its fastest rate cannot end by {@code
   * finish}, so that it cannot win: with room for rounding, left to the walk of its profile.
   */
  private static double skipAfter(double finish, double now) {
    return finish + 1e-9 * Math.abs(finish) + 1e-12 - now;
  }

  /** {@code reducers}, largest remaining work first, ties in their given order. */
  static int[] bySizeDescending(CoflowDemand d, int[] reducers) {
    double[] work = new double[d.reducers()];
    for (int n : reducers) {
      work[n] = d.work(n);
    }
    int[] out = reducers.clone();
    StableOrder.byKeyDescending(out, work);
    return out;
  }
}
