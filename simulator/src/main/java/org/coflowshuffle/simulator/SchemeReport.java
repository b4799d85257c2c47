/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One scheme's results pooled over trials: CCTs, the isolated lower bounds of the same coflows,
 * decision times, and (against a reference scheme run on the same instances) how each coflow's CCT
 * changed: the share of coflows slowed, as in the RPC paper's Fig. 5(c), and the distribution of
 * per-coflow speedups (reference CCT over this one), which is what the Philae paper's "P50" and
 * "P90 speedup" are, not a ratio of two percentiles of CCT.
 */
public final class SchemeReport {

  private final String scheme;
  private final List<double[]> ccts = new ArrayList<>();
  private final List<double[]> bounds = new ArrayList<>();
  private final List<double[]> decisions = new ArrayList<>();
  private final List<double[]> changes = new ArrayList<>(); // (ref - this) / ref per coflow
  private final List<double[]> speedups = new ArrayList<>(); // ref / this, where both are > 0
  private double wallSeconds;
  private double pooledBound; // sum over trials of PooledSrptBound.sumOfCcts

  public SchemeReport(String scheme) {
    this.scheme = scheme;
  }

  /**
   * Adds one trial; {@code pooledBound} is its {@link PooledSrptBound#sumOfCcts}, {@code reference}
   * the reference scheme's CCTs, or null for none.
   */
  public void add(
      Simulation.Outcome outcome, double[] lowerBounds, double pooledBound, double[] reference) {
    this.pooledBound += pooledBound;
    ccts.add(outcome.cct());
    bounds.add(lowerBounds);
    decisions.add(outcome.decisionMicros());
    wallSeconds += outcome.wallSeconds();
    if (reference != null) {
      double[] change = new double[reference.length];
      for (int i = 0; i < change.length; i++) {
        change[i] = reference[i] > 0 ? (reference[i] - outcome.cct()[i]) / reference[i] : 0;
      }
      changes.add(change);
      speedups.add(
          IntStream.range(0, reference.length)
              .filter(i -> reference[i] > 0 && outcome.cct()[i] > 0)
              .mapToDouble(i -> reference[i] / outcome.cct()[i])
              .toArray());
    }
  }

  public String scheme() {
    return scheme;
  }

  /** CCTs of every coflow of every trial. */
  public Summary cct() {
    return Summary.of(concat(ccts));
  }

  /** The CCTs themselves, trial after trial. */
  public double[] ccts() {
    return concat(ccts);
  }

  /** Sum of CCTs over the sum of the coflows' isolated lower bounds (>= 1). */
  public double lowerBoundRatio() {
    double c = 0;
    double b = 0;
    for (double v : concat(ccts)) {
      c += v;
    }
    for (double v : concat(bounds)) {
      b += v;
    }
    return b > 0 ? c / b : Double.NaN;
  }

  /**
   * The least average CCT any scheme could reach on the same instances ({@link PooledSrptBound}).
   */
  public double averageCctBound() {
    return pooledBound / concat(ccts).length;
  }

  public Summary decisionMicros() {
    return Summary.of(concat(decisions));
  }

  /** Fraction of coflows whose CCT is longer than under the reference (NaN without one). */
  public double fractionSlowerThanReference() {
    double[] all = concat(changes);
    if (all.length == 0) {
      return Double.NaN;
    }
    int slower = 0;
    for (double v : all) {
      slower += v < -1e-9 ? 1 : 0;
    }
    return (double) slower / all.length;
  }

  /** Per-coflow relative improvement over the reference, (ref - this) / ref. */
  public double[] changesAgainstReference() {
    return concat(changes);
  }

  /**
   * Per-coflow speedups over the reference, reference CCT over this scheme's (above 1 = faster), of
   * the coflows with a positive CCT under both; empty without a reference.
   */
  public Summary speedupOverReference() {
    return Summary.of(concat(speedups));
  }

  public double wallSeconds() {
    return wallSeconds;
  }

  private static double[] concat(List<double[]> parts) {
    int n = 0;
    for (double[] p : parts) {
      n += p.length;
    }
    double[] out = new double[n];
    int i = 0;
    for (double[] p : parts) {
      System.arraycopy(p, 0, out, i, p.length);
      i += p.length;
    }
    return out;
  }
}
