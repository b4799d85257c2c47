/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Applies the practical rules of section IV-D around a {@link PlacementMethod}: pinned reducers
 * stay where they run and count as load; a host whose reducer slots fill up keeps the largest
 * reducers placed on it and is closed to the rest, which are placed again; reducers for which no
 * slot is left wait for a later wave (host -1).
 */
public final class SlotAwarePlacer {

  private SlotAwarePlacer() {}

  /**
   * Places every unpinned reducer of {@code d} that a slot allows, by {@code method}, on slots free
   * now or freeing later; by {@link SlowHostRule} too where {@code slowHostRule} (this project's
   * rule, not the paper's).
   */
  public static int[] place(
      CoflowDemand d, NetworkProfile net, PlacementMethod method, boolean slowHostRule) {
    return place(d, net, method, false, false, slowHostRule);
  }

  /**
   * As {@link #place} with {@link SlowHostRule}, but a reducer that the rule allows no host with a
   * slot left waits for a later wave instead of taking a slow host: for runs that place each
   * reducer when it starts, where it can take a fast host's slot once one frees.
   */
  public static int[] placeKeepingRule(CoflowDemand d, NetworkProfile net, PlacementMethod method) {
    return place(d, net, method, false, true, true);
  }

  /** As {@link #place} on the slots free now only; null when they are too few for every reducer. */
  public static int[] placeNow(
      CoflowDemand d, NetworkProfile net, PlacementMethod method, boolean slowHostRule) {
    int[] hostOf = place(d, net, method, true, false, slowHostRule);
    return Arrays.stream(hostOf).allMatch(h -> h >= 0) ? hostOf : null;
  }

  private static int[] place(
      CoflowDemand d,
      NetworkProfile net,
      PlacementMethod method,
      boolean nowOnly,
      boolean keepRule,
      boolean rule) {
    int m = net.hostCount();
    int[] hostOf = new int[d.reducers()];
    double[] loads = new double[m];
    int[] open = new int[hostOf.length];
    int opened = 0;
    for (int n = 0; n < hostOf.length; n++) {
      hostOf[n] = d.pinnedHost(n);
      if (hostOf[n] >= 0) {
        loads[hostOf[n]] += d.networkBytes(n, hostOf[n]);
      } else {
        open[opened++] = n;
      }
    }
    int[] slots = new int[m];
    for (int j = 0; j < m; j++) {
      slots[j] = nowOnly ? net.freeSlotsNow(j) : net.freeSlots(j);
    }
    double[] least = rule ? d.slowestAllowed(net) : null;
    while (opened > 0) {
      boolean[] eligible = new boolean[m];
      int eligibleHosts = 0;
      for (int j = 0; j < m; j++) {
        eligible[j] = slots[j] > 0 && net.mayHostReducers(j);
        eligibleHosts += eligible[j] ? 1 : 0;
      }
      if (eligibleHosts == 0) {
        break; // multi-wave: the rest waits for slots to free up
      }
      // Reducers allowed the same hosts form a class; the most restricted (largest) go first. The
      // hosts allowed are the eligible ones at least as fast as the slowest allowed, its key.
      double[] speeds =
          eligibleHosts == net.reducerHosts()
              ? net.reducerSpeeds() // every host that may run reducers: the same speeds
              : net.inSpeeds(eligible);
      int[] bySize = GreedyPlacement.bySizeDescending(d, Arrays.copyOf(open, opened));
      int[] speedOf = new int[bySize.length]; // per reducer, its key's index in speeds; -1: waits
      for (int i = 0; i < bySize.length; i++) {
        int n = bySize[i];
        speedOf[i] = slowestAllowed(least, n, speeds);
        if (keepRule && least != null && speeds[speedOf[i]] < least[n]) {
          speedOf[i] = -1; // no host the rule allows has a slot: it waits
        }
      }
      opened = 0;
      boolean[] placed = new boolean[speeds.length]; // per key, its class placed this round
      for (int i = 0; i < bySize.length; i++) { // the classes in the order of their largest
        int key = speedOf[i];
        if (key < 0 || placed[key]) {
          continue;
        }
        placed[key] = true;
        boolean[] hosts = new boolean[m];
        for (int j = 0; j < m; j++) {
          hosts[j] = eligible[j] && slots[j] > 0 && net.inWhole(j) >= speeds[key];
        }
        int[] members = new int[bySize.length - i];
        int size = 0;
        for (int k = i; k < bySize.length; k++) {
          if (speedOf[k] == key) {
            members[size++] = bySize[k];
          }
        }
        members = Arrays.copyOf(members, size);
        opened = placeClass(d, net, method, members, hosts, slots, loads, hostOf, open, opened);
      }
    }
    return hostOf;
  }

  /**
   * False only when no placement by these rules can give {@code d} bandwidth now: none of its
   * senders with bytes left has outgoing bandwidth free now, or every reducer with bytes to fetch
   * is pinned to, or by {@link SlowHostRule} (where {@code rule}) may only go to, hosts with no
   * incoming bandwidth free now. A reducer with nothing to fetch starts as soon as it is placed, so
   * a coflow that has one may always use now; so may one whose senders may run reducers (a flow can
   * become local). Slots are not counted, which only makes the answer true more often; where any
   * host has a slot limit a reducer may be placed without the rule, so then any host with bandwidth
   * free now counts.
   */
  public static boolean mayReceiveNow(CoflowDemand d, NetworkProfile net, boolean rule) {
    if (d.hasLocality() || d.startsOncePlaced()) {
      return true;
    }
    boolean sender = false;
    for (int i = 0; i < d.senders().length && !sender; i++) {
      sender = d.senderBytes()[i] > 0 && net.out(d.senders()[i]).rateNow() > 0;
    }
    if (!sender) {
      return false;
    }
    boolean known = false; // worked out at the first reducer to place
    double fastestFree = -1;
    double[] least = null;
    for (int n = 0; n < d.reducers(); n++) {
      int pinned = d.pinnedHost(n);
      if (d.work(n) <= 0) {
        continue;
      }
      if (pinned >= 0) {
        if (net.in(pinned).rateNow() > 0) {
          return true;
        }
        continue;
      }
      if (!known) {
        fastestFree = net.fastestReceiverFreeNow();
        least = !rule || fastestFree < 0 || net.slotsLimited() ? null : d.slowestAllowed(net);
        known = true;
      }
      if (fastestFree >= 0
          && (least == null
              || least[n] > net.fastestReducerHost() // no host is allowed: all are
              || least[n] <= fastestFree)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The index in {@code speeds} (the eligible hosts' {@link NetworkProfile#inSpeeds}) of the
   * incoming bandwidth of the slowest eligible host that {@link SlowHostRule} allows reducer n; of
   * the slowest eligible one (all are allowed) when it allows none of them.
   */
  private static int slowestAllowed(double[] least, int n, double[] speeds) {
    if (least == null) {
      return 0;
    }
    int i = Arrays.binarySearch(speeds, least[n]);
    i = i >= 0 ? i : -i - 1; // the first at least least[n]
    return i < speeds.length ? i : 0;
  }

  /**
   * Places one class of reducers, largest first, on {@code hosts} by {@code method}, each host
   * taking as many as its slots allow; appends the reducers left over for the next round to {@code
   * left} from {@code count} on and returns the new count.
   */
  private static int placeClass(
      CoflowDemand d,
      NetworkProfile net,
      PlacementMethod method,
      int[] reducers,
      boolean[] hosts,
      int[] slots,
      double[] loads,
      int[] hostOf,
      int[] left,
      int count) {
    boolean any = false;
    for (boolean h : hosts) {
      any |= h;
    }
    if (!any) { // earlier classes took these hosts' last slots
      System.arraycopy(reducers, 0, left, count, reducers.length);
      return count + reducers.length;
    }
    int[] proposal = new int[hostOf.length];
    Arrays.fill(proposal, -1);
    method.place(d, reducers, hosts, loads, net, proposal);
    for (int n : reducers) { // largest first already: a class keeps the order it was built in
      int j = proposal[n];
      if (j < 0 || !hosts[j]) {
        throw new IllegalStateException("placement method left reducer " + n + " on host " + j);
      }
      if (slots[j] > 0) {
        slots[j]--;
        hostOf[n] = j;
        loads[j] += d.networkBytes(n, j);
      } else {
        left[count++] = n; // host j is full: place again without it
      }
    }
    return count;
  }

  /**
   * Section IV-D, local reducer: a reducer goes to the host holding most (more than half) of its
   * input when that host may run it; the others, for which no such host exists, are placed by
   * {@code rest}. Read as the largest share instead, a reducer whose input is spread evenly would
   * go to whichever sender comes first, and so would all of its coflow's reducers.
   */
  public static PlacementMethod localFirst(PlacementMethod rest) {
    return (d, reducers, eligible, loads, net, hostOf) -> {
      List<Integer> others = new ArrayList<>();
      double[] load = loads.clone();
      for (int n : reducers) {
        int h = d.largestSource(n);
        if (h >= 0 && eligible[h] && d.bytesFrom(n, h) > d.networkBytes(n, h)) {
          hostOf[n] = h;
          load[h] += d.networkBytes(n, h);
        } else {
          others.add(n);
        }
      }
      if (!others.isEmpty()) {
        rest.place(
            d, others.stream().mapToInt(Integer::intValue).toArray(), eligible, load, net, hostOf);
      }
    };
  }

  /** True when some reducer of {@code d} has input on a host that may run reducers. */
  public static boolean hasLocalChoice(CoflowDemand d, NetworkProfile net) {
    for (int n = 0; n < d.reducers(); n++) {
      int h = d.largestSource(n);
      if (d.pinnedHost(n) < 0 && h >= 0 && net.freeSlots(h) > 0) {
        return true;
      }
    }
    return false;
  }
}
