/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

/**
 * Knobs shared by the schemes.
 *
 * @param seed seeds every random choice (the random placement of the baselines), so runs repeat
 * @param starvationThreshold the paper's delta (Algorithm 1, lines 6-9), seconds: a coflow that has
 *     waited longer is served next whatever its size
 * @param workConserving hand bandwidth that the plan leaves idle to waiting flows (paper Fig. 8);
 *     off by default for RPC, as the paper argues (section III)
 * @param placeAll decide a host for every reducer, also of coflows that get no bandwidth now (the
 *     live coordinator's placement of a new stage asks for it); otherwise RPC stops planning once
 *     no coflow left could get any, and leaves the others' unpinned reducers without a host
 * @param waves how RPC schedules a coflow whose reducers do not all fit the free slots; null for
 *     the scheme's own rule ({@code rpc}: {@link WaveRule#WHOLE}; {@code rpc-faithful}, which keeps
 *     to the paper: {@link WaveRule#PER_WAVE})
 */
public record SchemeOptions(
    long seed,
    double starvationThreshold,
    boolean workConserving,
    boolean placeAll,
    WaveRule waves) {

  /** Default starvation threshold, seconds. */
  public static final double DEFAULT_STARVATION_THRESHOLD = 60.0;

  public SchemeOptions {
    if (!(starvationThreshold > 0)) {
      throw new IllegalArgumentException(
          "starvation threshold must be > 0 s: " + starvationThreshold);
    }
  }

  /** Options with each scheme's own wave rule. */
  public SchemeOptions(
      long seed, double starvationThreshold, boolean workConserving, boolean placeAll) {
    this(seed, starvationThreshold, workConserving, placeAll, null);
  }

  /** Options for rates and placements of the coflows served now ({@code placeAll} off). */
  public SchemeOptions(long seed, double starvationThreshold, boolean workConserving) {
    this(seed, starvationThreshold, workConserving, false);
  }

  /** These options with wave rule {@code rule} (null: the scheme's own). */
  public SchemeOptions withWaves(WaveRule rule) {
    return new SchemeOptions(seed, starvationThreshold, workConserving, placeAll, rule);
  }

  public static SchemeOptions defaults() {
    return new SchemeOptions(1L, DEFAULT_STARVATION_THRESHOLD, false);
  }
}
