/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * Paths a scheme chose for flows in an earlier invocation, kept per coflow and flow together with
 * the destination they were chosen for (a path is void once its reducer's host changes).
 */
final class RouteBook {

  private final Map<Integer, int[][]> routes = new HashMap<>(); // coflow -> {path[], dst[]}

  /** Forgets the coflows that are no longer active. */
  void retain(List<ActiveCoflow> active) {
    routes.keySet().retainAll(active.stream().map(ActiveCoflow::index).toList());
  }

  /** The path recorded for flow {@code k} of {@code coflow} towards {@code dst}, or -1. */
  int path(int coflow, int k, int dst) {
    int[][] r = routes.get(coflow);
    return r != null && r[1][k] == dst ? r[0][k] : -1;
  }

  void record(ActiveCoflow a, int k, int dst, int path) {
    int[][] r =
        routes.computeIfAbsent(
            a.index(), i -> new int[][] {new int[a.remaining().length], filled(a)});
    r[0][k] = path;
    r[1][k] = dst;
  }

  private static int[] filled(ActiveCoflow a) {
    int[] dst = new int[a.remaining().length];
    Arrays.fill(dst, -1);
    return dst;
  }
}
