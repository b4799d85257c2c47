/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * FCA, the flow chasing algorithm: for transfers whose flows enter the network at different times.
 * A Spark shuffle is such a transfer when its reducers start in waves: a reducer's flows enter when
 * it gets a host.
 *
 * <ol>
 *   <li>Intra-transfer control, when flows of a coflow enter: on the bandwidth other coflows'
 *       guarantees leave, the coflow's minimum completion time t* (every flow ending with the
 *       bottleneck); its flows are guaranteed {@code remaining / max(t*, T)}, where T is the time
 *       its flows already guaranteed need. New flows thus chase the bottleneck and need no more
 *       than it; if a new flow is the bottleneck, the others are slowed to end with it.
 *   <li>Inter-transfer control, smallest remaining coflow first: a coflow that could end sooner on
 *       its own guarantees plus the bandwidth nobody is guaranteed gets the rates that end it
 *       soonest (the paper's problem (7)-(9)); these become its guarantees.
 *   <li>Work conservation, same order, smaller flows first inside a coflow: what is still free goes
 *       to any flow that can use it, for this decision only, so that the next coflow to arrive
 *       finds it free.
 * </ol>
 *
 * <p>Guarantees are kept between decisions: a coflow keeps the completion time it was promised as
 * long as its flows last. Placement is random at arrival; FCA does not choose hosts.
 */
final class FcaPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;
  private final Map<Integer, double[]> guarantees = new HashMap<>(); // per coflow, rate per flow

  FcaPolicy(ArrivalPlacement placement) {
    this.placement = placement;
  }

  @Override
  public String name() {
    return "fca";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    guarantees.keySet().retainAll(active.stream().map(ActiveCoflow::index).toList());
    double[][] g = new double[active.size()][];
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      g[i] = guarantees.computeIfAbsent(a.index(), c -> new double[a.remaining().length]);
      for (int k = 0; k < g[i].length; k++) {
        if (!a.crossesNetwork(k, hostOf[i])) {
          g[i][k] = 0; // finished, local, or waiting for a host
        }
      }
      spend(a, hostOf[i], g[i], outLeft, inLeft, -1);
    }
    for (int i = 0; i < active.size(); i++) { // intra-transfer control, in arrival order
      if (hasEntering(active.get(i), hostOf[i], g[i])) {
        chase(active.get(i), hostOf[i], g[i], outLeft, inLeft);
      }
    }
    Integer[] order = new Integer[active.size()];
    double[] remaining = new double[active.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      remaining[i] = active.get(i).remainingBytes();
    }
    Arrays.sort(
        order, Comparator.comparingDouble((Integer i) -> remaining[i]).thenComparingInt(i -> i));
    for (int i : order) { // inter-transfer control
      speedUp(active.get(i), hostOf[i], g[i], outLeft, inLeft);
    }
    double[][] rates = new double[active.size()][];
    for (int i : order) { // work conservation
      rates[i] = g[i].clone();
      conserve(active.get(i), hostOf[i], rates[i], outLeft, inLeft);
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }

  /** Whether a flow of {@code a} crosses the network without a guarantee yet. */
  private static boolean hasEntering(ActiveCoflow a, int[] hostOf, double[] g) {
    for (int k = 0; k < g.length; k++) {
      if (a.crossesNetwork(k, hostOf) && g[k] <= 0) {
        return true;
      }
    }
    return false;
  }

  /** Intra-transfer control (the paper's Algorithm 1) for a coflow with entering flows. */
  private static void chase(
      ActiveCoflow a, int[] hostOf, double[] g, double[] outLeft, double[] inLeft) {
    spend(a, hostOf, g, outLeft, inLeft, +1); // its own guarantees are its to redistribute
    double promised = 0; // T: when its guaranteed flows end
    for (int k = 0; k < g.length; k++) {
      if (g[k] > 0) {
        promised = Math.max(promised, a.remaining()[k] / g[k]);
      }
    }
    double[] in = new double[inLeft.length];
    double[] out = new double[outLeft.length];
    Bandwidth.loads(a, hostOf, in, out);
    double fastest = Bandwidth.bottleneck(in, out, inLeft, outLeft); // t*
    if (fastest < Double.POSITIVE_INFINITY) {
      double t = Math.max(fastest, promised);
      for (int k = 0; k < g.length; k++) {
        g[k] = a.crossesNetwork(k, hostOf) ? a.remaining()[k] / t : 0;
      }
    } // else nothing is free for it now: it keeps what it has and enters again next time
    spend(a, hostOf, g, outLeft, inLeft, -1);
  }

  /**
   * The paper's problem (7)-(9): the soonest end t with every flow at {@code remaining / t}, on its
   * guarantees plus what is free; taken when sooner than the guarantees give.
   */
  private static void speedUp(
      ActiveCoflow a, int[] hostOf, double[] g, double[] outLeft, double[] inLeft) {
    double promised = 0;
    boolean any = false;
    for (int k = 0; k < g.length; k++) {
      if (a.crossesNetwork(k, hostOf)) {
        any = true;
        promised =
            Math.max(promised, g[k] > 0 ? a.remaining()[k] / g[k] : Double.POSITIVE_INFINITY);
      }
    }
    if (!any) {
      return;
    }
    spend(a, hostOf, g, outLeft, inLeft, +1);
    double[] in = new double[inLeft.length];
    double[] out = new double[outLeft.length];
    Bandwidth.loads(a, hostOf, in, out);
    double soonest = Bandwidth.bottleneck(in, out, inLeft, outLeft);
    if (soonest < promised * (1 - 1e-9)) {
      for (int k = 0; k < g.length; k++) {
        g[k] = a.crossesNetwork(k, hostOf) ? a.remaining()[k] / soonest : 0;
      }
    }
    spend(a, hostOf, g, outLeft, inLeft, -1);
  }

  /** Hands what is free to the coflow's flows, smallest remaining first (the paper's (10)). */
  private static void conserve(
      ActiveCoflow a, int[] hostOf, double[] rates, double[] outLeft, double[] inLeft) {
    Integer[] flows = new Integer[rates.length];
    for (int k = 0; k < flows.length; k++) {
      flows[k] = k;
    }
    Arrays.sort(
        flows,
        Comparator.comparingDouble((Integer k) -> a.remaining()[k]).thenComparingInt(k -> k));
    for (int k : flows) {
      if (a.crossesNetwork(k, hostOf)) {
        int src = a.flowSource()[k];
        int dst = hostOf[a.flowReducer()[k]];
        double extra = Math.max(0, Math.min(outLeft[src], inLeft[dst]));
        rates[k] += extra;
        outLeft[src] -= extra;
        inLeft[dst] -= extra;
      }
    }
  }

  /** Takes ({@code sign} -1) or gives back (+1) the coflow's rates {@code g} on every link. */
  private static void spend(
      ActiveCoflow a, int[] hostOf, double[] g, double[] outLeft, double[] inLeft, int sign) {
    for (int k = 0; k < g.length; k++) {
      if (g[k] > 0) {
        outLeft[a.flowSource()[k]] += sign * g[k];
        inLeft[hostOf[a.flowReducer()[k]]] += sign * g[k];
      }
    }
  }
}
