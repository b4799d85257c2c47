/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.placement.PlacementException;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * LP (4) of the Rapier paper, solved with ojalgo: the relaxation of one coflow's joint routing and
 * scheduling problem, where flow j may spread over its candidate paths. Variable {@code m_jk >= 0}
 * is the share of flow j on path k times the coflow's rate {@code alpha} (bytes per second per byte
 * of the flow); {@code sum_k m_jk = alpha} (4b), and every link carries at most its residual
 * capacity: {@code sum v_j m_jk <= R_l} over the paths through it (4a). Its optimum bounds from
 * above the rate of every choice of single paths (Theorem 1's {@code alpha_upper}).
 */
public final class PathSplitLp {

  /** The optimum of LP (4). */
  public record Split(double alpha, double[][] share) {}

  private final Duration timeLimit;

  public PathSplitLp(Duration timeLimit) {
    if (timeLimit.isNegative()) {
      throw new IllegalArgumentException("time limit " + timeLimit);
    }
    this.timeLimit = timeLimit;
  }

  /** A 10 s time limit, far above what one coflow's LP takes. */
  public PathSplitLp() {
    this(Duration.ofSeconds(10));
  }

  /**
   * Maximises {@code alpha} subject to (4a)-(4c).
   *
   * @param bytes v_j, bytes of flow j, each positive
   * @param paths per flow, its candidate paths as link indices
   * @param residual R_l, capacity left on link l
   * @return alpha and {@code m_jk}
   * @throws PlacementException when ojalgo fails or runs out of time
   */
  public Split solve(double[] bytes, int[][][] paths, double[] residual) {
    if (bytes.length == 0) {
      return new Split(Double.POSITIVE_INFINITY, new double[0][]);
    }
    double largest = 0;
    for (double v : bytes) {
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("flow bytes must be positive and finite: " + v);
      }
      largest = Math.max(largest, v);
    }
    double scale = largest; // bytes and capacities in units of the largest flow: well scaled
    Presolved pre = new Presolved(bytes, paths, residual);
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable alpha = model.addVariable("alpha").lower(0).weight(1);
    if (pre.cap < Double.POSITIVE_INFINITY) {
      alpha.upper(pre.cap);
    }
    Map<Integer, Expression> links = new HashMap<>();
    IntFunction<Expression> row =
        id ->
            links.computeIfAbsent(
                id, l -> model.addExpression("link" + l).upper(residual[l] / scale)); // (4a)
    Variable[][] m = new Variable[bytes.length][];
    for (int j = 0; j < bytes.length; j++) {
      if (!pre.splits[j]) { // its bytes cross every kept link it touches whatever the split
        for (int l : paths[j][0]) {
          if (pre.kept[l]) {
            row.apply(l).add(alpha, bytes[j] / scale);
          }
        }
        continue;
      }
      m[j] = new Variable[paths[j].length];
      Expression all = model.addExpression("flow" + j).level(0); // (4b)
      all.set(alpha, -1);
      for (int k = 0; k < paths[j].length; k++) {
        m[j][k] = model.addVariable("m" + j + "_" + k).lower(0);
        all.set(m[j][k], 1);
        for (int l : paths[j][k]) {
          if (pre.kept[l]) {
            row.apply(l).add(m[j][k], bytes[j] / scale);
          }
        }
      }
    }
    model.options.time_abort = Math.max(1, timeLimit.toMillis());
    model.options.time_suffice = model.options.time_abort;
    long start = System.nanoTime();
    Optimisation.Result result = model.maximise();
    Optimisation.State state = result.getState();
    if (state != Optimisation.State.OPTIMAL && state != Optimisation.State.DISTINCT) {
      throw new PlacementException(
          "LP (4) for "
              + bytes.length
              + " flows: solver state "
              + state
              + " after "
              + (System.nanoTime() - start) / 1_000_000
              + " ms (time limit "
              + timeLimit.toMillis()
              + " ms)");
    }
    double a = result.doubleValue(model.indexOf(alpha));
    double[][] share = new double[bytes.length][];
    for (int j = 0; j < bytes.length; j++) {
      share[j] = new double[paths[j].length];
      if (m[j] == null) {
        share[j][0] = a; // any split does: all of it on the first path
        continue;
      }
      for (int k = 0; k < m[j].length; k++) {
        share[j][k] = result.doubleValue(model.indexOf(m[j][k]));
      }
    }
    return new Split(a, share);
  }

  /**
   * What makes LP (4) small without changing its optimum. A link every candidate of every flow
   * through it crosses (a host's own, on a fat-tree) carries {@code alpha * v_j} from each whatever
   * the split: it only caps {@code alpha}. A link that could not be full even with every flow that
   * may cross it on it, at that cap, never binds. Only the other links get a row (4a), and only
   * flows crossing some of them on some candidates but not all get variables.
   */
  private static final class Presolved {
    final double cap; // alpha is per byte, so scaling bytes leaves it as it is
    final boolean[] kept;
    final boolean[] splits;

    Presolved(double[] bytes, int[][][] paths, double[] residual) {
      int links = residual.length;
      double[] most = new double[links]; // bytes per unit of alpha if every flow came this way
      double[] sure = new double[links]; // bytes per unit of alpha whatever the split
      int[][] shared = new int[bytes.length][];
      for (int j = 0; j < bytes.length; j++) {
        shared[j] = Fabric.shared(paths[j]);
        Set<Integer> seen = new HashSet<>();
        for (int[] path : paths[j]) {
          for (int l : path) {
            if (seen.add(l)) {
              most[l] += bytes[j];
            }
          }
        }
        for (int l : shared[j]) {
          sure[l] += bytes[j];
        }
      }
      double c = Double.POSITIVE_INFINITY;
      for (int l = 0; l < links; l++) {
        if (sure[l] > 0) {
          c = Math.min(c, Math.max(0, residual[l]) / sure[l]);
        }
      }
      kept = new boolean[links];
      for (int l = 0; l < links; l++) {
        kept[l] = most[l] > sure[l] && most[l] * c > residual[l];
      }
      splits = new boolean[bytes.length];
      for (int j = 0; j < bytes.length; j++) {
        for (int[] path : paths[j]) {
          for (int l : path) {
            splits[j] |= kept[l] && !Fabric.contains(shared[j], l);
          }
        }
      }
      cap = c;
    }
  }
}
