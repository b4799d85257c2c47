/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import org.coflowshuffle.core.placement.FractionalPlacement;
import org.coflowshuffle.core.util.StableOrder;

/**
 * Problem (6) and Algorithm 2 without an LP solver, for the case the paper actually poses: e_nj =
 * w_n / b_j makes (4) a related-machines problem, where reducer n may use host j in (6) exactly
 * when w_n <= b_j * alpha. Those eligible sets are nested (prefixes of the hosts sorted by
 * bandwidth), so a fractional placement for a deadline exists iff pouring the reducers, largest
 * first, into the hosts, fastest first, never puts a piece on a host it may not use. The least
 * deadline is found by bisection; the same test works for any {@link HostCapacity}, including
 * bandwidth that frees up over time.
 *
 * <p>The poured solution is a caterpillar: each host holds pieces of consecutive reducers, and only
 * the first reducer on a host may continue from the previous host. Algorithm 2 on it places a split
 * reducer on the child host (any of its hosts but the one shared with the previous reducer) holding
 * its largest piece, so every host gets at most one split reducer, whose work is at most the host's
 * capacity: the 2-approximation of Theorem 4.
 */
public final class RelatedMachinesPlacement {

  private static final int BISECTION_STEPS = 80;
  private static final double RELATIVE_GAP = 1e-10;

  /**
   * How close to the least deadline {@link #place} may stop, relative to the time from the lower
   * bound to it: Algorithm 2's factor 2 then holds within a millionth of that time.
   */
  private static final double PLACEMENT_GAP = 1e-6;

  private RelatedMachinesPlacement() {}

  /** Outcome: the least fractional deadline and the rounded placement. */
  public record Result(double alpha, int[] hostOf) {}

  /**
   * @param work w_n of each reducer to place
   * @param eligible per host: may take one more reducer
   * @param lowerBound a deadline no placement can beat (the time the capacities start from)
   * @param upperBound a deadline known to be feasible for a fractional placement (e.g. the makespan
   *     of any integral placement)
   */
  public static Result solve(
      double[] work,
      HostCapacity capacity,
      boolean[] eligible,
      double lowerBound,
      double upperBound) {
    return solve(work, capacity, eligible, lowerBound, upperBound, false);
  }

  /**
   * Algorithm 2's placement, as {@link #solve} gives it, at a deadline within {@link
   * #PLACEMENT_GAP} of the least one instead of at that deadline to the last bits of the clock: a
   * placement needs no more, and the bisection is spared its last steps.
   */
  public static int[] place(
      double[] work,
      HostCapacity capacity,
      boolean[] eligible,
      double lowerBound,
      double upperBound) {
    return solve(work, capacity, eligible, lowerBound, upperBound, true).hostOf();
  }

  private static Result solve(
      double[] work,
      HostCapacity capacity,
      boolean[] eligible,
      double lowerBound,
      double upperBound,
      boolean placementOnly) {
    int n = work.length;
    int[] order = descending(work);
    double lo = lowerBound; // the bracket starts at the coflow's start, not at time 0
    double hi = upperBound;
    Pour pour = new Pour(work, order, capacity, eligibleHosts(eligible));
    if (!pour.meets(hi, null)) {
      throw new IllegalArgumentException("upper bound " + hi + " is not feasible");
    }
    for (int step = 0; step < BISECTION_STEPS && apart(lo, hi, lowerBound, placementOnly); step++) {
      double mid = 0.5 * (lo + hi);
      if (pour.meets(mid, null)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    int[] hostOf = new int[n];
    pour.meets(hi, hostOf);
    return new Result(hi, hostOf);
  }

  /** Whether the bisection's bracket is still too wide. */
  private static boolean apart(double lo, double hi, double lowerBound, boolean placementOnly) {
    return hi - lo > RELATIVE_GAP * hi
        && !(placementOnly && hi - lo <= PLACEMENT_GAP * (hi - lowerBound));
  }

  /**
   * The optimum of (6), the least deadline of {@link #solve}, with a solution of it that splits as
   * few reducers as it can: reducers, largest first, each whole on the host with the most room left
   * among those (6) lets it use, and split over them, most room first, only where it fits on none.
   * A split reducer fills every host it touches but its last, so no two reducers share two hosts:
   * the solution's graph is a forest, with at most N + M fractions (Lemma 2), for Algorithm 2 to
   * round. It exists whenever the deadline is feasible: the hosts a reducer may use include those
   * of every larger one, so placing it anywhere among them leaves the smaller ones the same room in
   * total as the pour that tested the deadline.
   *
   * @throws IllegalArgumentException when {@code upperBound} is not feasible
   */
  public static FractionalPlacement relax(
      double[] work,
      HostCapacity capacity,
      boolean[] eligible,
      double lowerBound,
      double upperBound) {
    double alpha = solve(work, capacity, eligible, lowerBound, upperBound).alpha();
    int m = capacity.hosts();
    int[] hosts = eligibleHosts(eligible);
    double[] reach = new double[m];
    double[] room = new double[m];
    for (int j : hosts) {
      reach[j] = capacity.bytesBy(j, alpha);
      room[j] = Math.max(0, reach[j] - capacity.pinnedBytes(j));
    }
    double[][] x = new double[work.length][m];
    for (int r : descending(work)) {
      int[] mayUse =
          Arrays.stream(hosts).filter(j -> work[r] <= reach[j] * (1 + 1e-12) + 1e-9).toArray();
      StableOrder.byKeyDescending(mayUse, room);
      if (mayUse.length == 0) {
        throw new IllegalStateException("reducer " + r + " has no host at the optimum " + alpha);
      }
      double need = work[r];
      if (need <= room[mayUse[0]] * (1 + 1e-12) + 1e-9) {
        x[r][mayUse[0]] = 1;
        room[mayUse[0]] = Math.max(0, room[mayUse[0]] - need);
        continue;
      }
      int last = mayUse[0];
      for (int i = 0; i < mayUse.length && need > 0 && room[mayUse[i]] > 0; i++) {
        last = mayUse[i];
        double piece = Math.min(need, room[last]);
        x[r][last] += piece / work[r];
        // A host filled to within rounding is full: no later piece makes a cycle through it.
        room[last] = room[last] - piece <= 1e-12 * reach[last] ? 0 : room[last] - piece;
        need -= piece;
      }
      x[r][last] += need / work[r]; // rounding's dust, if any: the deadline was met within it
    }
    return new FractionalPlacement(alpha, x);
  }

  /** Whether a fractional placement of (6) meets {@code deadline}. */
  public static boolean feasible(
      double[] work, HostCapacity capacity, boolean[] eligible, double deadline) {
    return new Pour(work, descending(work), capacity, eligibleHosts(eligible))
        .meets(deadline, null);
  }

  private static int[] descending(double[] work) {
    int[] order = new int[work.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    StableOrder.byKeyDescending(order, work);
    return order;
  }

  /** The eligible hosts. */
  private static int[] eligibleHosts(boolean[] eligible) {
    int usable = 0;
    int[] hosts = new int[eligible.length];
    for (int j = 0; j < eligible.length; j++) {
      if (eligible[j]) {
        hosts[usable++] = j;
      }
    }
    return Arrays.copyOf(hosts, usable);
  }

  /** {@code hosts}, most capacity by {@code deadline} first ({@code reach}), ties by number. */
  private static int[] sortedHosts(int[] hosts, double[] reach) {
    int[] sorted = hosts.clone();
    StableOrder.byKeyDescending(sorted, reach);
    return sorted;
  }

  /**
   * Whether {@code sorted} is the order {@link #sortedHosts} gives by {@code reach}: that order is
   * the only one with every neighbour pair in it, the keys being comparable.
   */
  private static boolean inOrder(int[] sorted, double[] reach) {
    for (int i = 1; i < sorted.length; i++) {
      int a = sorted[i - 1];
      int b = sorted[i];
      if (!(reach[a] > reach[b] || reach[a] == reach[b] && a < b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The reducers, largest first, poured into the eligible hosts, most capacity first, for one
   * deadline after another. The hosts' order is kept from one deadline to the next and sorted again
   * only when it no longer holds: the deadlines of a bisection soon differ too little to reorder
   * hosts, so most pours need only a check of the order, not a sort.
   */
  private static final class Pour {
    private final double[] work;
    private final int[] order;
    private final HostCapacity capacity;
    private final int[] eligible; // ascending
    private final double[] reach; // per eligible host, the bytes it can take by the deadline, alone
    private int[] sorted; // the last order of the hosts, null before the first

    Pour(double[] work, int[] order, HostCapacity capacity, int[] eligible) {
      this.work = work;
      this.order = order;
      this.capacity = capacity;
      this.eligible = eligible;
      reach = new double[capacity.hosts()];
    }

    /**
     * Tests whether a fractional placement meets {@code deadline}; when {@code hostOf} is given,
     * also rounds the poured solution into it (Algorithm 2 on a caterpillar).
     */
    boolean meets(double deadline, int[] hostOf) {
      for (int j : eligible) {
        reach[j] = capacity.bytesBy(j, deadline);
      }
      if (sorted == null || !(capacity.fixedOrder() || inOrder(sorted, reach))) {
        sorted = sortedHosts(eligible, reach);
      }
      return pour(hostOf);
    }

    private boolean pour(int[] hostOf) {
      int usable = sorted.length;
      if (usable == 0) {
        return work.length == 0;
      }
      int p = 0; // current host in pouring order
      double room = Math.max(0, reach[sorted[0]] - capacity.pinnedBytes(sorted[0]));
      boolean shared = false; // current host already holds a piece of an earlier reducer
      for (int r : order) {
        double need = work[r];
        int bestHost = -1;
        double bestPiece = -1;
        boolean first = true;
        while (true) {
          int j = sorted[p];
          if (work[r] > reach[j] * (1 + 1e-12) + 1e-9) {
            return false; // (6): e_nj > alpha on this host and all later ones
          }
          double piece = Math.min(need, room);
          boolean child = !(first && shared); // the shared host is this reducer's parent
          if (piece > 0 || need == 0) {
            if (child && piece > bestPiece) {
              bestPiece = piece;
              bestHost = j;
            }
            if (bestHost < 0 && !child && need - piece <= 1e-9 * Math.max(1, need)) {
              bestHost = j; // wholly on the shared host: not split after all
            }
          }
          need -= piece;
          room -= piece;
          if (need <= 1e-9 * Math.max(1, work[r])) {
            shared = true;
            break;
          }
          if (++p == usable) {
            return false;
          }
          int next = sorted[p];
          room = Math.max(0, reach[next] - capacity.pinnedBytes(next));
          shared = false;
          first = false;
        }
        if (hostOf != null) {
          hostOf[r] = bestHost >= 0 ? bestHost : sorted[p];
        }
      }
      return true;
    }
  }
}
