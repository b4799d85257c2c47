/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;

/**
 * Turns a placement into a {@link CoflowPlan}: per host the bytes that cross its links, and the
 * completion estimate of section IV-C, where every link of the coflow sends as fast as the
 * bandwidth left to it allows, rising as earlier coflows release bandwidth (water-filling). With
 * constant bandwidth this is exact: max(max_j W_j / b_in_j, max_u V_u / b_out_u).
 */
public final class PlanEvaluator {

  private PlanEvaluator() {}

  public static CoflowPlan evaluate(CoflowDemand d, int[] hostOf, NetworkProfile net) {
    int m = net.hostCount();
    double[] received = new double[m];
    double[] sent = new double[m];
    int[] senders = d.senders();
    double[] senderBytes = d.senderBytes();
    for (int i = 0; i < senders.length; i++) {
      sent[senders[i]] = senderBytes[i];
    }
    double unplaced = 0;
    for (int n = 0; n < hostOf.length; n++) {
      int h = hostOf[n];
      if (h >= 0) {
        double local = d.bytesFrom(n, h);
        received[h] += d.work(n) - local;
        sent[h] -= local;
      } else {
        unplaced += d.work(n);
      }
    }
    if (unplaced > 0) {
      d.subtractUnplaced(hostOf, sent);
    }
    double finish = net.now();
    int[] touched = new int[m];
    int count = 0;
    for (int j = 0; j < m; j++) {
      boolean loads = false;
      if (received[j] > 1e-9) {
        finish = Math.max(finish, net.in(j).timeToCarry(received[j]));
        loads = true;
      } else {
        received[j] = 0;
      }
      if (sent[j] > 1e-9) {
        finish = Math.max(finish, net.out(j).timeToCarry(sent[j]));
        loads = true;
      } else {
        sent[j] = 0;
      }
      if (loads) {
        touched[count++] = j;
      }
    }
    if (net.anySlotFreeingLater()) {
      finish = Math.max(finish, slotWaits(d, hostOf, net));
    }
    double laterWave = 0;
    if (unplaced > 0) {
      // A later wave (section IV-D, multi-wave): at best it gets the whole cluster afterwards.
      double inTotal = net.acceptingIn();
      laterWave = inTotal > 0 ? unplaced / inTotal : Double.POSITIVE_INFINITY;
    }
    return new CoflowPlan(
        d, hostOf, finish + laterWave, laterWave, received, sent, Arrays.copyOf(touched, count));
  }

  /**
   * The earliest the reducers placed on slots that free up later can have their input: on each
   * host, the largest reducers take the slots that free first, and the bytes of those on the slot
   * freeing at r and after it cross the host's incoming link after r.
   */
  private static double slotWaits(CoflowDemand d, int[] hostOf, NetworkProfile net) {
    int m = net.hostCount();
    int[] count = new int[m];
    for (int n = 0; n < hostOf.length; n++) {
      if (hostOf[n] >= 0 && d.pinnedHost(n) < 0) {
        count[hostOf[n]]++;
      }
    }
    double[][] w = new double[m][]; // per host whose last slot taken frees later: reducers' bytes
    boolean any = false;
    for (int j = 0; j < m; j++) {
      if (count[j] > 0 && net.slotFree(j, count[j] - 1) > net.now()) {
        w[j] = new double[count[j]];
        count[j] = 0; // refilled below as the index into w[j]
        any = true;
      }
    }
    if (!any) {
      return net.now();
    }
    for (int n = 0; n < hostOf.length; n++) {
      int j = hostOf[n];
      if (j >= 0 && w[j] != null && d.pinnedHost(n) < 0) {
        w[j][count[j]++] = d.work(n) - d.bytesFrom(n, j);
      }
    }
    double finish = net.now();
    for (int j = 0; j < m; j++) {
      if (w[j] == null) {
        continue;
      }
      Arrays.sort(w[j]); // ascending: the latest slot takes the smallest
      LinkProfile in = net.in(j);
      double after = 0;
      for (int slot = w[j].length - 1; slot >= 0; slot--) {
        after += w[j][w[j].length - 1 - slot];
        double r = net.slotFree(j, slot);
        if (r == Double.POSITIVE_INFINITY) {
          return r;
        }
        if (r > net.now()) {
          finish = Math.max(finish, in.timeToCarry(in.bytesBy(r) + after));
        }
      }
    }
    return finish;
  }

  /**
   * {@link #evaluate} for a coflow whose reducers are all pinned, the usual case while coflows
   * fetch: what it puts on each link cannot change, so that is worked out once per demand and each
   * later call only asks the links it loads when they can carry it. Algorithm 1 asks this of every
   * waiting coflow after each one it serves; sharing the load arrays between the plans is safe, as
   * plans are only read.
   */
  public static CoflowPlan evaluatePinned(CoflowDemand d, NetworkProfile net) {
    CoflowPlan base = d.pinnedPlan(net.hostCount());
    if (base == null) {
      base = evaluate(d, d.pinnedHosts(), net);
      d.pinnedPlan(base);
      return base;
    }
    double finish = net.now();
    for (int j : base.touched()) {
      if (base.received()[j] > 0) {
        finish = Math.max(finish, net.in(j).timeToCarry(base.received()[j]));
      }
      if (base.sent()[j] > 0) {
        finish = Math.max(finish, net.out(j).timeToCarry(base.sent()[j]));
      }
    }
    return new CoflowPlan(
        d, base.hostOf(), finish, 0, base.received(), base.sent(), base.touched());
  }

  /**
   * {@link #evaluatePinned} again, for a plan {@code previous} made by it in epoch {@code since} of
   * the same {@code net}: only the links that lost bandwidth since are asked again. A link that
   * loses bandwidth can only take longer to carry the same bytes, so the estimate is the old one or
   * a later time on one of those links, exactly as a whole new evaluation would find.
   */
  public static CoflowPlan reevaluatePinned(CoflowPlan previous, int since, NetworkProfile net) {
    double finish = previous.finish();
    double[] received = previous.received();
    double[] sent = previous.sent();
    for (int j : previous.touched()) {
      if (received[j] > 0 && net.inChangedSince(j, since)) {
        finish = Math.max(finish, net.in(j).timeToCarry(received[j]));
      }
      if (sent[j] > 0 && net.outChangedSince(j, since)) {
        finish = Math.max(finish, net.out(j).timeToCarry(sent[j]));
      }
    }
    return finish == previous.finish()
        ? previous
        : new CoflowPlan(
            previous.demand(), previous.hostOf(), finish, 0, received, sent, previous.touched());
  }

  /**
   * A time before which the coflow cannot finish under any placement, from LP (3)'s relaxation: all
   * reducer hosts merged into one (with the whole cluster's bandwidth), each sender's bytes over
   * its bandwidth, and the largest reducer on the fastest host. Cheap (no placement), it orders
   * coflows until they are planned. With locality no byte is surely remote, so it is just "now".
   */
  public static double lowerBound(CoflowDemand d, NetworkProfile net) {
    return net.now() + Math.max(unpinnedBound(d, net), pinnedBound(d, net));
  }

  /**
   * A time before which the coflow's current wave cannot end, whichever of its waiting reducers
   * join it: its pinned reducers' part of {@link #lowerBound}.
   */
  public static double waveLowerBound(CoflowDemand d, NetworkProfile net) {
    return net.now() + pinnedBound(d, net);
  }

  /**
   * Seconds from now that the coflow's pinned reducers need on their hosts at the least (their
   * bytes over the host's whole incoming bandwidth): the part of {@link #lowerBound} that its
   * placement so far fixed. 0 with locality or nothing pinned.
   */
  static double pinnedBound(CoflowDemand d, NetworkProfile net) {
    return d.bounds(net)[1];
  }

  /**
   * {@link #unpinnedBound} and {@link #pinnedBound}, worked out for {@link CoflowDemand#bounds}:
   * they read only the hosts' whole bandwidths, never what is free, so a demand keeps them.
   */
  static double[] bounds(CoflowDemand d, NetworkProfile net) {
    return new double[] {unpinnedBoundOf(d, net), pinnedBoundOf(d, net)};
  }

  private static double pinnedBoundOf(CoflowDemand d, NetworkProfile net) {
    if (d.hasLocality()) {
      return 0;
    }
    double[] pinned = null; // bytes each host must receive for pinned reducers
    for (int n = 0; n < d.reducers(); n++) {
      int h = d.pinnedHost(n);
      if (h >= 0) {
        pinned = pinned == null ? new double[net.hostCount()] : pinned;
        pinned[h] += d.work(n);
      }
    }
    double bound = 0;
    for (int n = 0; pinned != null && n < d.reducers(); n++) { // the hosts of pinned reducers
      int h = d.pinnedHost(n);
      if (h >= 0 && pinned[h] > 0) {
        bound = Math.max(bound, pinned[h] / net.inWhole(h));
      }
    }
    return bound;
  }

  /**
   * {@link #lowerBound} less its pinned part, in seconds from now: what any placement of the coflow
   * needs, the reducers placed so far aside.
   */
  static double unpinnedBound(CoflowDemand d, NetworkProfile net) {
    return d.bounds(net)[0];
  }

  private static double unpinnedBoundOf(CoflowDemand d, NetworkProfile net) {
    if (d.hasLocality()) {
      return 0;
    }
    double total = 0;
    double largest = 0;
    for (int n = 0; n < d.reducers(); n++) {
      total += d.work(n);
      if (d.pinnedHost(n) < 0) {
        largest = Math.max(largest, d.work(n));
      }
    }
    double bound = total > 0 ? total / net.acceptingIn() : 0;
    bound = Math.max(bound, largest > 0 ? largest / net.fastestAccepting() : 0);
    int[] senders = d.senders();
    double[] bytes = d.senderBytes();
    for (int i = 0; i < senders.length; i++) {
      if (bytes[i] > 0) { // a sender with nothing left bounds nothing (and 0 / 0 is NaN)
        bound = Math.max(bound, bytes[i] / net.outWhole(senders[i]));
      }
    }
    return bound;
  }
}
