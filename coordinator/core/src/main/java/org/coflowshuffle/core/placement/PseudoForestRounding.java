/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Algorithm 2 of the RPC paper: rounds a fractional placement (a solution of relaxation (6)) to one
 * host per reducer, at most doubling the makespan.
 *
 * <p>The bipartite graph G(x) joins reducer n and host j when {@code x[n][j] > EDGE}. Line 2 places
 * every reducer of degree 1 on its only host. The rest are split reducers; each is given a distinct
 * host it shares an edge with: on a cycle (lines 4-7), each reducer takes the host after it in one
 * orientation, and the cycle's nodes are removed; in a tree (lines 8-13), rooted at a reducer leaf
 * if there is one and otherwise at a reducer, each reducer takes the child host that carries most
 * of it. A host's only parent is one reducer, so no host is taken twice.
 *
 * <p>Why this is a 2-approximation (Theorem 4): let {@code alpha} be the optimum of (6), a lower
 * bound on the optimum of (5). The unsplit reducers that line 2 puts on host j carry all of
 * themselves there in x, so with the initial load they add up to at most host j's fractional load,
 * {@code <= alpha} by (6a). Each host receives at most one split reducer, over an edge with {@code
 * x > 0}, which (6) only allows when {@code time <= alpha}. Host j's load is thus at most {@code 2
 * alpha}. Theorem 6 shows the factor is tight, (2M-1)/M for M hosts.
 *
 * <p>The argument needs G(x) to be a pseudo-forest (at most one cycle per component), which holds
 * for a basic solution by Lemma 2 and Corollary 3. For any other x this class still returns a valid
 * placement: it removes cycles one at a time until none is left, and a reducer left without a child
 * host goes to a neighbour not yet given a split reducer, else to its largest fraction. Everything
 * iterates in index order, so the result is deterministic.
 */
public final class PseudoForestRounding {

  /** Fractions at or below this are not edges of G(x). */
  public static final double EDGE = 1e-9;

  private PseudoForestRounding() {}

  /**
   * @return {@code hostOf[n]}, the host of reducer n, always a pair with finite time
   */
  public static int[] round(MakespanProblem problem, FractionalPlacement placement) {
    double[][] x = placement.x();
    if (x.length != problem.reducers()) {
      throw new IllegalArgumentException(
          "placement has " + x.length + " reducers, problem " + problem.reducers());
    }
    for (int n = 0; n < x.length; n++) {
      if (x[n].length != problem.hosts()) {
        throw new IllegalArgumentException(
            "placement row " + n + " has " + x[n].length + " hosts, not " + problem.hosts());
      }
    }
    return new Rounder(problem.time(), x).round();
  }

  /** Graph state of one rounding. Nodes 0..N-1 are reducers, N..N+M-1 hosts. */
  private static final class Rounder {
    private final double[][] time;
    private final double[][] x;
    private final int reducers;
    private final int[][] hostsOf;
    private final int[][] reducersOf;
    private final int[] hostOf;
    private final boolean[] hostRemoved;
    private final boolean[] hostTaken;

    Rounder(double[][] time, double[][] x) {
      this.time = time;
      this.x = x;
      this.reducers = time.length;
      int hosts = reducers == 0 ? 0 : time[0].length;
      this.hostsOf = new int[reducers][];
      List<List<Integer>> byHost = new ArrayList<>();
      for (int j = 0; j < hosts; j++) {
        byHost.add(new ArrayList<>());
      }
      for (int n = 0; n < reducers; n++) {
        final int r = n;
        hostsOf[n] = IntStream.range(0, hosts).filter(j -> isEdge(r, j)).toArray();
        for (int j : hostsOf[n]) {
          byHost.get(j).add(n);
        }
      }
      this.reducersOf = new int[hosts][];
      for (int j = 0; j < hosts; j++) {
        reducersOf[j] = byHost.get(j).stream().mapToInt(Integer::intValue).toArray();
      }
      this.hostOf = new int[reducers];
      Arrays.fill(hostOf, -1);
      this.hostRemoved = new boolean[hosts];
      this.hostTaken = new boolean[hosts];
    }

    private boolean isEdge(int n, int j) {
      return x[n][j] > EDGE && time[n][j] < Double.POSITIVE_INFINITY;
    }

    int[] round() {
      placeUnsplit();
      for (int[] cycle = findCycle(); cycle != null; cycle = findCycle()) {
        placeCycle(cycle);
      }
      List<Integer> childless = placeTrees();
      for (int n : childless) {
        placeOnAnyNeighbour(n);
      }
      return hostOf;
    }

    /**
     * Line 2: a reducer with one edge goes to that host; one with none to its best allowed host.
     */
    private void placeUnsplit() {
      for (int n = 0; n < reducers; n++) {
        if (hostsOf[n].length == 1) {
          hostOf[n] = hostsOf[n][0];
        } else if (hostsOf[n].length == 0) {
          int best = -1;
          for (int j = 0; j < time[n].length; j++) {
            if (time[n][j] < Double.POSITIVE_INFINITY
                && (best < 0
                    || x[n][j] > x[n][best]
                    || (x[n][j] == x[n][best] && time[n][j] < time[n][best]))) {
              best = j;
            }
          }
          hostOf[n] = best;
        }
      }
    }

    private boolean active(int node) {
      return node < reducers ? hostOf[node] < 0 : !hostRemoved[node - reducers];
    }

    /** Active neighbours of a node, in index order. */
    private int[] neighbours(int node) {
      int[] all = node < reducers ? hostsOf[node] : reducersOf[node - reducers];
      int offset = node < reducers ? reducers : 0;
      return Arrays.stream(all).map(v -> v + offset).filter(this::active).toArray();
    }

    /** Lines 4-5: a cycle of the active graph by depth-first search, or null if it is a forest. */
    private int[] findCycle() {
      int nodes = reducers + hostRemoved.length;
      int[] parent = new int[nodes];
      int[] colour = new int[nodes]; // 0 unseen, 1 on the stack, 2 done
      int[][] next = new int[nodes][];
      int[] cursor = new int[nodes];
      for (int start = 0; start < reducers; start++) {
        if (!active(start) || colour[start] != 0) {
          continue;
        }
        ArrayDeque<Integer> stack = new ArrayDeque<>();
        stack.push(start);
        colour[start] = 1;
        parent[start] = -1;
        next[start] = neighbours(start);
        while (!stack.isEmpty()) {
          int v = stack.peek();
          if (cursor[v] == next[v].length) {
            colour[v] = 2;
            stack.pop();
            continue;
          }
          int w = next[v][cursor[v]++];
          if (w == parent[v] || colour[w] == 2) {
            continue;
          }
          if (colour[w] == 1) {
            List<Integer> cycle = new ArrayList<>();
            for (int u = v; u != w; u = parent[u]) {
              cycle.add(u);
            }
            cycle.add(w);
            return cycle.stream().mapToInt(Integer::intValue).toArray();
          }
          colour[w] = 1;
          parent[w] = v;
          next[w] = neighbours(w);
          stack.push(w);
        }
      }
      return null;
    }

    /**
     * Lines 6-7: each reducer on the cycle takes its successor host in the orientation carrying the
     * larger total fraction; the cycle's reducers and hosts then leave the graph.
     */
    private void placeCycle(int[] cycle) {
      int len = cycle.length;
      double forward = 0;
      double backward = 0;
      for (int i = 0; i < len; i++) {
        if (cycle[i] < reducers) {
          forward += x[cycle[i]][cycle[(i + 1) % len] - reducers];
          backward += x[cycle[i]][cycle[(i + len - 1) % len] - reducers];
        }
      }
      int step = forward >= backward ? 1 : len - 1;
      for (int i = 0; i < len; i++) {
        if (cycle[i] < reducers) {
          int j = cycle[(i + step) % len] - reducers;
          hostOf[cycle[i]] = j;
          hostTaken[j] = true;
        }
      }
      for (int node : cycle) {
        if (node >= reducers) {
          hostRemoved[node - reducers] = true;
        }
      }
    }

    /**
     * Lines 8-13: roots each remaining tree at a reducer leaf, else at its first reducer, and puts
     * every reducer on its child host with the largest fraction.
     *
     * @return reducers that have no child host (only when x is not a basic solution)
     */
    private List<Integer> placeTrees() {
      int nodes = reducers + hostRemoved.length;
      boolean[] seen = new boolean[nodes];
      List<Integer> childless = new ArrayList<>();
      for (int start = 0; start < reducers; start++) {
        if (!active(start) || seen[start]) {
          continue;
        }
        int root = chooseRoot(start, seen);
        int[] parent = new int[nodes];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(root);
        parent[root] = -1;
        boolean[] visited = new boolean[nodes];
        visited[root] = true;
        List<Integer> component = new ArrayList<>();
        while (!queue.isEmpty()) {
          int v = queue.poll();
          component.add(v);
          for (int w : neighbours(v)) {
            if (!visited[w]) {
              visited[w] = true;
              parent[w] = v;
              queue.add(w);
            }
          }
        }
        for (int v : component) {
          if (v < reducers && !placeOnChild(v, parent[v])) {
            childless.add(v);
          }
        }
      }
      return childless;
    }

    /** Marks the component of {@code start} seen; returns its first reducer leaf, else start. */
    private int chooseRoot(int start, boolean[] seen) {
      int leaf = -1;
      ArrayDeque<Integer> queue = new ArrayDeque<>();
      queue.add(start);
      seen[start] = true;
      while (!queue.isEmpty()) {
        int v = queue.poll();
        int[] adjacent = neighbours(v);
        if (v < reducers && adjacent.length == 1 && (leaf < 0 || v < leaf)) {
          leaf = v;
        }
        for (int w : adjacent) {
          if (!seen[w]) {
            seen[w] = true;
            queue.add(w);
          }
        }
      }
      return leaf >= 0 ? leaf : start;
    }

    private boolean placeOnChild(int n, int parentNode) {
      int best = -1;
      for (int w : neighbours(n)) {
        int j = w - reducers;
        if (w != parentNode && (best < 0 || x[n][j] > x[n][best])) {
          best = j;
        }
      }
      if (best < 0) {
        return false;
      }
      hostOf[n] = best;
      hostTaken[best] = true;
      return true;
    }

    /** Fallback for a reducer with no child host: a neighbour without a split reducer if any. */
    private void placeOnAnyNeighbour(int n) {
      int best = -1;
      for (int j : hostsOf[n]) {
        if (best < 0
            || (!hostTaken[j] && hostTaken[best])
            || (hostTaken[j] == hostTaken[best] && x[n][j] > x[n][best])) {
          best = j;
        }
      }
      hostOf[n] = best;
      hostTaken[best] = true;
    }
  }
}
