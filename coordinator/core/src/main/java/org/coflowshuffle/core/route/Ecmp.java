/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.route;

/**
 * Equal-cost multi-path routing as switches do it: each flow hashed onto one of its candidate
 * paths, blind to load and to the other flows of its coflow. The baselines of the Rapier paper
 * route this way. The hash mixes a seed (a fabric's hash salt), the coflow and the flow, so a run
 * repeats.
 */
public final class Ecmp {

  private Ecmp() {}

  /** The path index, in {@code [0, paths)}, of flow {@code flow} of coflow {@code coflow}. */
  public static int pick(long seed, int coflow, int flow, int paths) {
    long x = seed * 0x9E3779B97F4A7C15L + coflow * 0xBF58476D1CE4E5B9L + flow * 0x94D049BB133111EBL;
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L; // splitmix64's finaliser
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    x ^= x >>> 31;
    return (int) Math.floorMod(x, (long) paths);
  }
}
