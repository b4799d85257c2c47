/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.RemainingTotals;

/**
 * What one active coflow still has to move, aggregated the way the placement problem needs it: per
 * reducer its remaining bytes (the paper's w_n, up to the common factor f) and how many of them sit
 * on each source host (so a reducer placed on a source host fetches that part locally, section
 * IV-D), and per sender its remaining bytes. Immutable once built (but for a cache of what its
 * pinned reducers load, see {@link PlanEvaluator#evaluatePinned}); valid for the coflow's {@link
 * ActiveCoflow#version()}.
 */
public final class CoflowDemand {

  private final ActiveCoflow active;
  private final CoflowShape shape;
  private final double[] work;
  private final double[] slotBytes;
  private final double[] senderBytes; // per shape.senders
  private final int[] pinnedHost;
  private final boolean allPinned;
  private final boolean startsOncePlaced; // an unpinned reducer has nothing left to fetch

  /** With every reducer pinned: the plan's fixed loads. */
  private CoflowPlan pinnedPlan;

  private List<Host> boundsHosts; // the hosts `bounds` and `slowHostLimit` were worked out for
  private double[] bounds;
  private double slowHostLimit = Double.NaN; // NaN: not worked out yet
  private double[] slowestAllowed; // null: not worked out yet, or the rule does not apply

  /**
   * @param locality whether to keep bytes per (reducer, source host), needed only when some sender
   *     may also run reducers
   */
  public CoflowDemand(ActiveCoflow active, CoflowShape shape, boolean locality) {
    this.active = active;
    this.shape = shape;
    int reducers = active.coflow().reducers().size();
    double[] remaining = active.remaining();
    int maxSender = shape.senders.length == 0 ? -1 : shape.senders[shape.senders.length - 1];
    RemainingTotals totals = active.totalsOrSum(maxSender + 1);
    work = totals.perReducer();
    double[] perHost = totals.perSource();
    if (locality) {
      int[] slotOfFlow = shape.slots().slotOfFlow();
      slotBytes = new double[shape.slots().sourceOfSlot().length];
      for (int k = 0; k < remaining.length; k++) {
        slotBytes[slotOfFlow[k]] += remaining[k];
      }
    } else {
      slotBytes = null;
    }
    senderBytes = new double[shape.senders.length];
    for (int i = 0; i < senderBytes.length; i++) {
      senderBytes[i] = perHost[shape.senders[i]];
    }
    pinnedHost = new int[reducers];
    boolean all = true;
    boolean starts = false;
    for (int n = 0; n < reducers; n++) {
      pinnedHost[n] = active.pinned()[n] ? active.hostOf()[n] : -1;
      all &= pinnedHost[n] >= 0;
      starts |= pinnedHost[n] < 0 && work[n] <= 0;
    }
    allPinned = all;
    startsOncePlaced = starts;
  }

  public ActiveCoflow active() {
    return active;
  }

  public int reducers() {
    return work.length;
  }

  /** Remaining bytes of reducer n, local or not. */
  public double work(int n) {
    return work[n];
  }

  /** Remaining bytes of reducer n that sit on {@code host} (0 when built without locality). */
  public double bytesFrom(int n, int host) {
    if (slotBytes == null) {
      return 0;
    }
    CoflowShape.Slots slots = shape.slots();
    int i =
        Arrays.binarySearch(
            slots.sourceOfSlot(), slots.firstSlot()[n], slots.firstSlot()[n + 1], host);
    return i >= 0 ? slotBytes[i] : 0;
  }

  /** Remaining bytes reducer n must fetch over the network if placed on {@code host}. */
  public double networkBytes(int n, int host) {
    return work[n] - bytesFrom(n, host);
  }

  /**
   * The source host holding most of reducer n's remaining bytes, or -1 if it has none (or the
   * demand was built without locality).
   */
  public int largestSource(int n) {
    int best = -1;
    if (slotBytes == null) {
      return best;
    }
    double most = 0;
    CoflowShape.Slots slots = shape.slots();
    for (int s = slots.firstSlot()[n]; s < slots.firstSlot()[n + 1]; s++) {
      if (slotBytes[s] > most) {
        most = slotBytes[s];
        best = slots.sourceOfSlot()[s];
      }
    }
    return best;
  }

  /** True when some sender may also run reducers, so placement can make flows local. */
  public boolean hasLocality() {
    return slotBytes != null;
  }

  /** Subtracts from {@code sent} (per host) the bytes of the reducers {@code hostOf} leaves out. */
  void subtractUnplaced(int[] hostOf, double[] sent) {
    if (slotBytes != null) {
      CoflowShape.Slots slots = shape.slots();
      for (int n = 0; n < work.length; n++) {
        for (int s = slots.firstSlot()[n]; hostOf[n] < 0 && s < slots.firstSlot()[n + 1]; s++) {
          sent[slots.sourceOfSlot()[s]] -= slotBytes[s];
        }
      }
      return;
    }
    double[] remaining = active.remaining();
    for (int k = 0; k < remaining.length; k++) { // one pass in flow order
      if (hostOf[shape.reducerOfFlow[k]] < 0) {
        sent[shape.sourceOfFlow[k]] -= remaining[k];
      }
    }
  }

  /** The coflow's fixed structure (flows grouped by reducer); do not modify its arrays. */
  CoflowShape shape() {
    return shape;
  }

  /** Distinct sending hosts (ascending); do not modify. */
  int[] senders() {
    return shape.senders;
  }

  /** Remaining bytes of each of {@link #senders()}; do not modify. */
  double[] senderBytes() {
    return senderBytes;
  }

  /** Host of reducer n if it is pinned, else -1. */
  public int pinnedHost(int n) {
    return pinnedHost[n];
  }

  /**
   * {@link PlanEvaluator}'s unpinned and pinned bounds on the hosts of {@code net}, worked out once
   * per list of hosts: every decision orders each waiting coflow by them, and working them out sums
   * the bandwidth of the whole cluster.
   */
  double[] bounds(NetworkProfile net) {
    if (boundsHosts != net.hosts()) {
      bounds = PlanEvaluator.bounds(this, net);
      slowHostLimit = Double.NaN;
      slowestAllowed = null;
      boundsHosts = net.hosts();
    }
    return bounds;
  }

  /** {@link SlowHostRule#limit} on the hosts of {@code net}, worked out once per list of hosts. */
  double slowHostLimit(NetworkProfile net) {
    bounds(net);
    if (Double.isNaN(slowHostLimit)) {
      slowHostLimit = SlowHostRule.limit(this, net);
    }
    return slowHostLimit;
  }

  /**
   * {@link SlowHostRule#slowestAllowed} on the hosts of {@code net}, worked out once per list of
   * hosts: asked of every waiting coflow at each epoch of a decision. Read only.
   */
  double[] slowestAllowed(NetworkProfile net) {
    bounds(net); // forgets what was worked out for other hosts
    if (slowestAllowed == null) {
      slowestAllowed = SlowHostRule.slowestAllowed(this, net);
    }
    return slowestAllowed;
  }

  /** The pinned plan cached for a cluster of {@code hosts}, or null. */
  CoflowPlan pinnedPlan(int hosts) {
    return pinnedPlan != null && pinnedPlan.received().length == hosts ? pinnedPlan : null;
  }

  void pinnedPlan(CoflowPlan plan) {
    pinnedPlan = plan;
  }

  /** Each reducer's pinned host (-1 where none), a copy. */
  int[] pinnedHosts() {
    return pinnedHost.clone();
  }

  /**
   * Each reducer's pinned host (-1 where none): the array itself, read-only, for an assignment that
   * keeps the pinned reducers where they are (see {@link
   * org.coflowshuffle.core.policy.CoflowAssignment}).
   */
  public int[] pinnedHostsShared() {
    return pinnedHost;
  }

  /**
   * Whether a reducer not yet pinned has nothing left to fetch: placed, it starts and ends at once,
   * so the coflow may always make progress now.
   */
  public boolean startsOncePlaced() {
    return startsOncePlaced;
  }

  /** Whether every reducer is pinned, so that there is nothing left to place. */
  public boolean allPinned() {
    return allPinned;
  }
}
