/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * Varys-style scheduling on a placement fixed at arrival: coflows in Smallest-Effective-Bottleneck
 * -First order (their isolated completion time on the whole cluster), each given MADD rates (every
 * flow ends with the coflow's bottleneck on the bandwidth left), then idle bandwidth handed out to
 * flows in the same order (work conservation). With random placement this is the paper's
 * "scheduling-only (Varys)" baseline; with {@link NeatPlacement} it is NEAT.
 */
final class SebfPolicy implements SchedulingPolicy {

  private final String name;
  private final ArrivalPlacement placement;
  private double[] none = {}; // the rates of a coflow that gets none, shared while sizes repeat

  SebfPolicy(String name, ArrivalPlacement placement) {
    this.name = name;
    this.placement = placement;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    int m = view.hosts().size();
    double[] freeIn = Bandwidth.incoming(view);
    double[] freeOut = Bandwidth.outgoing(view);
    double[] bottleneck = new double[active.size()];
    Integer[] order = new Integer[active.size()];
    double[][] loadIn = new double[active.size()][];
    double[][] loadOut = new double[active.size()][];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      loadIn[i] = new double[m];
      loadOut[i] = new double[m];
      Bandwidth.loads(active.get(i), hostOf[i], loadIn[i], loadOut[i]);
      bottleneck[i] = Bandwidth.bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
    }
    Arrays.sort(
        order, Comparator.comparingDouble((Integer i) -> bottleneck[i]).thenComparingInt(i -> i));
    double[][] rates = new double[active.size()][];
    for (int i : order) {
      ActiveCoflow a = active.get(i);
      double gamma = Bandwidth.bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
      if (!(gamma > 0) || gamma == Double.POSITIVE_INFINITY) {
        continue;
      }
      rates[i] = new double[a.remaining().length];
      for (int k = 0; k < a.remaining().length; k++) {
        if (a.crossesNetwork(k, hostOf[i])) {
          rates[i][k] = a.remaining()[k] / gamma; // MADD
        }
      }
      for (int j = 0; j < m; j++) { // what those rates take, link by link
        freeIn[j] -= loadIn[i][j] / gamma;
        freeOut[j] -= loadOut[i][j] / gamma;
      }
    }
    for (int i : order) { // work conservation
      int openIn = open(loadIn[i], freeIn); // links the coflow loads that have bandwidth left
      int openOut = open(loadOut[i], freeOut);
      ActiveCoflow a = active.get(i);
      if (rates[i] == null && openIn > 0 && openOut > 0) {
        rates[i] = new double[a.remaining().length];
      }
      for (int k = 0; k < a.remaining().length && openIn > 0 && openOut > 0; k++) {
        int h = hostOf[i][a.flowReducer()[k]];
        int u = a.flowSource()[k];
        if (a.crossesNetwork(k, hostOf[i])) {
          double extra = Math.max(0, Math.min(freeIn[h], freeOut[u]));
          rates[i][k] += extra;
          freeIn[h] -= extra;
          freeOut[u] -= extra;
          if (extra > 0) { // once one side has no open link left, no flow of it can get more
            openIn -= freeIn[h] > 0 ? 0 : 1;
            openOut -= freeOut[u] > 0 ? 0 : 1;
          }
        }
      }
    }
    for (int i = 0; i < rates.length; i++) {
      if (rates[i] == null) { // most coflows in flight, with random placement: no fresh array each
        int flows = active.get(i).remaining().length;
        none = none.length == flows ? none : new double[flows];
        rates[i] = none;
      }
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }

  /** How many links the coflow loads have bandwidth left. */
  private static int open(double[] load, double[] free) {
    int open = 0;
    for (int j = 0; j < load.length; j++) {
      open += load[j] > 0 && free[j] > 0 ? 1 : 0;
    }
    return open;
  }
}
