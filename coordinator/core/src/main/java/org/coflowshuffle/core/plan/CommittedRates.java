/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;

/**
 * What {@link ReceiverDrivenRates} last committed for one coflow, kept by the policy between its
 * invocations so that the next commit rewrites only the flows whose rates change. Under
 * receiver-driven rates a flow's rate is its remaining bytes over the time its reducer's host has
 * left; while the flows move at those rates, both shrink together and the rate stays the same, so
 * only the reducers whose end moved (a host freed or taken by another coflow, a reducer done) need
 * new rates. Those are usually few, and a commit then writes their flows' rates, not every flow's.
 *
 * <p>Valid only while the coflow's flows moved at exactly these rates since they were committed:
 * the owner drops it when a decision did not commit the coflow. A commit also starts afresh on its
 * own when the coflow's shape or the senders with bandwidth free change. Not thread-safe; one per
 * coflow and policy.
 */
public final class CommittedRates {

  CoflowShape shape; // null: nothing committed, the next commit starts afresh
  double at; // when the rates were committed
  double[] rates; // per flow: the array handed out, rewritten in place by later commits
  int[] to; // per reducer: the host it receives on at these rates, -1 for none
  double[] end; // per reducer: when its flows end at these rates (absolute), NaN when none move
  double[] inRate; // per reducer: the sum of its flows' rates
  double[] workAt; // per reducer: its bytes left when the rates were committed
  double[] outRate; // per host: the sum of the rates of the flows it sends
  int[] outFlows; // per host: how many of its flows have a positive rate
  double[] sendBytes; // per host: the bytes of its flows that crossed the network at `at`
  boolean[] gate; // per host: whether it had outgoing bandwidth free (its flows may move)
  boolean onPlan; // the flows moved at the rates of the commit before, or there was none
  private double[] spare; // for the first commit's rates, or null

  /** Nothing committed yet. */
  public CommittedRates() {}

  /**
   * Nothing committed yet, with an array the first commit may write its rates into if it has the
   * length: an array the owner no longer hands out. A commit that starts afresh writes every
   * element, so it need not be zeroed, and an arriving coflow of 250,000 flows is spared allocating
   * and zeroing 2 MB.
   */
  public CommittedRates(double[] spare) {
    this.spare = spare;
  }

  /** The array of the last commit's rates, or null. */
  public double[] rates() {
    return rates;
  }

  /**
   * Whether a commit of {@code d} whose flows {@linkplain #movedAsCommitted moved as committed} may
   * start from these rates: the same coflow, and the same senders with bandwidth free.
   */
  boolean continues(CoflowDemand d, boolean[] gate, int hosts) {
    CoflowShape shape = d.shape();
    if (this.shape != shape
        || outRate.length != hosts
        || rates.length != shape.sourceOfFlow.length) {
      return false;
    }
    for (int u : shape.senders) {
      if (this.gate[u] != gate[u]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether each reducer of {@code d} has the bytes left at {@code now} that its flows' rates since
   * the last commit leave it (the exact runner's coflows do; a live coordinator's, reported from
   * real transfers, do not, and are committed afresh every time); true when nothing of the coflow
   * was committed, since nothing then says they did not.
   */
  boolean movedAsCommitted(CoflowDemand d, double now) {
    if (shape != d.shape()) {
      return true;
    }
    double dt = now - at;
    for (int n = 0; n < to.length; n++) {
      double expected = workAt[n] - inRate[n] * dt;
      if (Math.abs(d.work(n) - expected) > 1e-8 * workAt[n] + 1) { // rounding, and the runner's
        // rule that a flow within a billionth of its bytes of its end has ended
        return false;
      }
    }
    return true;
  }

  /** Starts afresh for {@code d}: every rate 0, no reducer receiving. */
  void start(CoflowDemand d, boolean[] gate, int hosts) {
    CoflowShape shape = d.shape();
    rates = spare; // else null, for a new array: the last one may still be read
    spare = null;
    this.shape = shape;
    this.gate = gate;
    int reducers = d.reducers();
    to = new int[reducers];
    end = new double[reducers];
    workAt = new double[reducers];
    restart();
  }

  /** No reducer receiving, for a commit that writes every rate (the rates are left as they are). */
  void restart() {
    int flows = shape.sourceOfFlow.length;
    if (rates == null || rates.length != flows) {
      rates = new double[flows];
    }
    Arrays.fill(to, -1);
    Arrays.fill(end, Double.NaN);
    inRate = new double[to.length];
    int hosts = gate.length;
    outRate = new double[hosts];
    outFlows = new int[hosts];
  }

  /**
   * When the first reducer that receives at these rates has all of its bytes (absolute): its host's
   * bandwidth frees then, for the coflows waiting. Infinity when none receives, or when the flows
   * did not move at the rates committed before (as live, where transfers report their progress):
   * then these ends say little of when they will.
   */
  public double firstEnd() {
    double first = Double.POSITIVE_INFINITY;
    for (int n = 0; onPlan && end != null && n < end.length; n++) {
      if (inRate[n] > 0 && end[n] < first) {
        first = end[n];
      }
    }
    return first;
  }

  /** Records when the rates were committed, and what was left then. */
  void committedAt(CoflowDemand d, double[] sendBytes, double now) {
    at = now;
    this.sendBytes = sendBytes;
    for (int n = 0; n < workAt.length; n++) {
      workAt[n] = d.work(n);
    }
  }
}
