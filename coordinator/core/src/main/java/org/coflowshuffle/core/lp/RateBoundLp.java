/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import java.time.Duration;
import org.coflowshuffle.core.placement.PlacementException;
import org.coflowshuffle.core.placement.RateBound;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * LP (3) of the RPC paper, solved as an LP with ojalgo: the largest coflow transmission frequency
 * {@code f} when all reducer hosts are merged into one host. {@link RateBound} computes the same
 * number in closed form, and that is what the scheduler uses; this class exists so tests can check
 * the closed form against the model exactly as the paper writes it.
 *
 * <p>Variables: {@code f >= 0} and one rate {@code r_k >= 0} per flow.
 */
public final class RateBoundLp {

  private final Duration timeLimit;

  public RateBoundLp(Duration timeLimit) {
    if (timeLimit.isNegative()) {
      throw new IllegalArgumentException("time limit " + timeLimit);
    }
    this.timeLimit = timeLimit;
  }

  /** A 10 s time limit, far above the milliseconds a coflow's LP takes. */
  public RateBoundLp() {
    this(Duration.ofSeconds(10));
  }

  /**
   * Maximises {@code f} subject to (3a)-(3c).
   *
   * @param bytes v_k, bytes of flow k
   * @param sender index of the host sending flow k, into {@code senderOut}
   * @param senderOut b^out_u, outgoing bandwidth of host u ({@code +Infinity}: unlimited)
   * @param sumBin sum of b^in_j over the reducer hosts ({@code +Infinity}: unlimited)
   * @return {@code f}, or {@link Double#POSITIVE_INFINITY} when the LP is unbounded (no bytes)
   * @throws PlacementException when ojalgo fails or runs out of time
   */
  public double maxFrequency(double[] bytes, int[] sender, double[] senderOut, double sumBin) {
    RateBound.bytesPerSender(bytes, sender, senderOut); // checks every input
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable f = model.addVariable("f").lower(0).weight(1);
    Variable[] rate = new Variable[bytes.length];
    for (int k = 0; k < bytes.length; k++) {
      rate[k] = model.addVariable("r" + k).lower(0);
    }
    addRateDefinitions(model, rate, f, bytes);
    addIncomingLimit(model, rate, sumBin);
    addOutgoingLimits(model, rate, sender, senderOut);
    model.options.time_abort = Math.max(1, timeLimit.toMillis());
    model.options.time_suffice = model.options.time_abort;

    long start = System.nanoTime();
    Optimisation.Result result = model.maximise();
    Duration spent = Duration.ofNanos(System.nanoTime() - start);
    Optimisation.State state = result.getState();
    switch (state) {
      case OPTIMAL, DISTINCT -> {
        return result.doubleValue(model.indexOf(f));
      }
      case UNBOUNDED -> {
        return Double.POSITIVE_INFINITY; // no flow carries a byte, or no finite bandwidth binds
      }
      default -> { // FAILED, INFEASIBLE (impossible: f = 0 is feasible), or stopped by time_abort
        throw new PlacementException(
            "LP (3) for "
                + bytes.length
                + " flows from "
                + senderOut.length
                + " hosts: solver state "
                + state
                + " after "
                + spent.toMillis()
                + " ms (time limit "
                + timeLimit.toMillis()
                + " ms)");
      }
    }
  }

  /** (3c): r_k = v_k f for every flow k. */
  private static void addRateDefinitions(
      ExpressionsBasedModel model, Variable[] rate, Variable f, double[] bytes) {
    for (int k = 0; k < rate.length; k++) {
      Expression definition = model.addExpression("rate" + k).level(0);
      definition.set(rate[k], 1);
      definition.set(f, -bytes[k]);
    }
  }

  /** (3a): sum_k r_k <= sum_j b^in_j, the merged host's incoming bandwidth. */
  private static void addIncomingLimit(
      ExpressionsBasedModel model, Variable[] rate, double sumBin) {
    if (!(sumBin >= 0)) {
      throw new IllegalArgumentException("sum of incoming bandwidths " + sumBin);
    }
    if (sumBin == Double.POSITIVE_INFINITY) {
      return;
    }
    Expression incoming = model.addExpression("in").upper(sumBin);
    for (Variable r : rate) {
      incoming.set(r, 1);
    }
  }

  /** (3b): sum of r_k over the flows k sent by u <= b^out_u, for every host u. */
  private static void addOutgoingLimits(
      ExpressionsBasedModel model, Variable[] rate, int[] sender, double[] senderOut) {
    Expression[] outgoing = new Expression[senderOut.length];
    for (int u = 0; u < senderOut.length; u++) {
      if (senderOut[u] < Double.POSITIVE_INFINITY) {
        outgoing[u] = model.addExpression("out" + u).upper(senderOut[u]);
      }
    }
    for (int k = 0; k < rate.length; k++) {
      if (outgoing[sender[k]] != null) {
        outgoing[sender[k]].set(rate[k], 1);
      }
    }
  }
}
