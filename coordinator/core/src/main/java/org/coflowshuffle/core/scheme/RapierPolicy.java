/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.route.Ecmp;
import org.coflowshuffle.core.route.MinimumCct;
import org.coflowshuffle.core.route.PathChoice;
import org.coflowshuffle.core.route.PathRate;

/**
 * Rapier (Zhao et al., INFOCOM 2015): routing and scheduling of coflows together on a multi-path
 * fabric. Algorithm 1: coflows past the starvation threshold first, then repeatedly the coflow with
 * the least completion time against the capacity left ({@link MinimumCct}, Algorithm 2: LP (4),
 * rounding to one path per flow, LP (2)), each taking its rate {@code alpha * v_j} on its paths;
 * then Algorithm 3 hands what is left to flows, unscheduled coflows first, larger flows first, each
 * on its widest path.
 *
 * <p>"Each time the coflow with the least completion time against what is left" is evaluated
 * lazily: a coflow's key is a lower bound of that time (first the bound of its hosts' links, which
 * every path crosses; later its LP (4) optimum), and it is solved again only when it reaches the
 * head of the queue with a stale key. With {@code ecmp} routing every flow keeps the path its hash
 * gives it, which makes this the paper's "scheduling-only" scheme (Varys-like MRTF on ECMP).
 *
 * <p>Reducers without a host are placed at random when their coflow arrives: Rapier takes the
 * endpoints as given.
 */
final class RapierPolicy implements SchedulingPolicy {

  private final String name;
  private final ArrivalPlacement placement;
  private final MinimumCct minimumCct; // null: route by ECMP
  private final long seed;
  private final double delta;

  /**
   * @param minimumCct Algorithm 2; null to keep each flow on its ECMP path
   * @param seed the ECMP hash salt
   */
  RapierPolicy(
      String name, ArrivalPlacement placement, MinimumCct minimumCct, long seed, double delta) {
    this.name = name;
    this.placement = placement;
    this.minimumCct = minimumCct;
    this.seed = seed;
    this.delta = delta;
  }

  @Override
  public String name() {
    return name;
  }

  /** A coflow in the queue; {@code routed} is exact when {@code version} equals the commits. */
  private record Entry(double key, int index, int version, MinimumCct.Routed routed) {}

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    Fabric fabric = view.fabric();
    int[][] hostOf = placement.placements(view);
    double[] free = fabric.capacities(view.hosts());
    int n = active.size();
    CrossingFlows[] crossing = new CrossingFlows[n];
    double[][] rates = new double[n][];
    int[][] paths = new int[n][];
    int[][] chosen = new int[n][]; // per crossing flow: its path, -1 before it has one
    double[] cct = new double[n];
    List<Integer> starving = new ArrayList<>();
    boolean[] served = new boolean[n]; // served before the queue: the starving
    double wakeUp = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      ActiveCoflow a = active.get(i);
      crossing[i] = CrossingFlows.of(a, hostOf[i], fabric);
      rates[i] = new double[a.remaining().length];
      paths[i] = new int[a.remaining().length];
      chosen[i] = new int[crossing[i].size()];
      Arrays.fill(chosen[i], -1);
      cct[i] = Double.POSITIVE_INFINITY;
      if (a.waitingSince() >= delta) {
        starving.add(i);
      } else {
        wakeUp = Math.min(wakeUp, view.now() - a.waitingSince() + delta);
      }
    }
    // Algorithm 1, lines 7-9: past the threshold, oldest first (as SrtfPolicy, which says why).
    starving.sort(Comparator.comparingDouble(i -> active.get(i).coflow().arrival()));
    for (int i : starving) {
      served[i] = true;
      commit(route(active.get(i), crossing[i], free), i, crossing[i], free, rates, chosen, cct);
    }
    // Lines 5-16: least completion time against what is left, lazily.
    Comparator<Entry> order = Comparator.comparingDouble(Entry::key).thenComparingInt(Entry::index);
    PriorityQueue<Entry> queue = new PriorityQueue<>(order);
    for (int i = 0; i < n; i++) {
      if (!served[i] && crossing[i].size() > 0) {
        queue.add(new Entry(hostBound(crossing[i], free), i, -1, null));
      }
    }
    int commits = 0;
    while (!queue.isEmpty() && queue.peek().key() < Double.POSITIVE_INFINITY) {
      Entry e = queue.poll();
      if (e.version() != commits) {
        MinimumCct.Routed r = route(active.get(e.index()), crossing[e.index()], free);
        Entry fresh = new Entry(1 / r.alpha(), e.index(), commits, r);
        if (!queue.isEmpty() && order.compare(queue.peek(), fresh) < 0) {
          queue.add(fresh);
          continue;
        }
        e = fresh;
      }
      if (e.routed().alpha() > 0) {
        commit(e.routed(), e.index(), crossing[e.index()], free, rates, chosen, cct);
        commits++;
      }
    }
    distribute(active, crossing, free, rates, chosen, cct);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < chosen[i].length; j++) {
        paths[i][crossing[i].flow()[j]] = Math.max(0, chosen[i][j]);
      }
    }
    return Decision.of(hostOf, rates, paths, wakeUp);
  }

  /** Algorithm 2 against {@code free}, or the coflow's ECMP paths with LP (2)'s rate. */
  private MinimumCct.Routed route(ActiveCoflow a, CrossingFlows c, double[] free) {
    if (minimumCct != null) {
      return minimumCct.route(c.bytes(), c.candidates(), free);
    }
    int[] path = ecmp(a, c);
    double alpha = PathRate.alpha(c.bytes(), MinimumCct.chosen(c.candidates(), path), free);
    return new MinimumCct.Routed(path, alpha, alpha);
  }

  private int[] ecmp(ActiveCoflow a, CrossingFlows c) {
    int[] path = new int[c.size()];
    for (int j = 0; j < path.length; j++) {
      path[j] = Ecmp.pick(seed, a.index(), c.flow()[j], c.candidates()[j].length);
    }
    return path;
  }

  /** Seconds the coflow needs at least on its hosts' own links, which every path crosses. */
  private static double hostBound(CrossingFlows c, double[] free) {
    int[][] ends = new int[c.size()][];
    for (int j = 0; j < ends.length; j++) {
      int[] p = c.candidates()[j][0];
      ends[j] = new int[] {p[0], p[p.length - 1]};
    }
    return 1 / PathRate.alpha(c.bytes(), ends, free);
  }

  private static void commit(
      MinimumCct.Routed r,
      int i,
      CrossingFlows c,
      double[] free,
      double[][] rates,
      int[][] chosen,
      double[] cct) {
    if (!(r.alpha() > 0) || r.alpha() == Double.POSITIVE_INFINITY) {
      return;
    }
    for (int j = 0; j < c.size(); j++) {
      double rate = r.alpha() * c.bytes()[j];
      int[] p = c.candidates()[j][r.path()[j]];
      chosen[i][j] = r.path()[j];
      rates[i][c.flow()[j]] = rate;
      PathRate.take(p, rate, free);
    }
    cct[i] = 1 / r.alpha();
  }

  /**
   * Algorithm 3: coflows by their minimal completion time, largest first (so unscheduled ones come
   * first, in arrival order), flows by bytes, largest first; each flow takes all that is left on
   * its path (a scheduled flow keeps its path, an unscheduled one takes the widest, or its ECMP
   * path).
   */
  private void distribute(
      List<ActiveCoflow> active,
      CrossingFlows[] crossing,
      double[] free,
      double[][] rates,
      int[][] chosen,
      double[] cct) {
    Integer[] order = new Integer[active.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -cct[i]).thenComparingInt(i -> i));
    for (int i : order) {
      CrossingFlows c = crossing[i];
      Integer[] flows = new Integer[c.size()];
      for (int j = 0; j < flows.length; j++) {
        flows[j] = j;
      }
      Arrays.sort(flows, Comparator.comparingDouble((Integer j) -> -c.bytes()[j]));
      int[] ecmp = minimumCct == null ? ecmp(active.get(i), c) : null;
      for (int j : flows) {
        int k = chosen[i][j];
        if (k < 0) {
          k = ecmp != null ? ecmp[j] : PathChoice.widest(c.candidates()[j], free);
        }
        double extra = PathRate.bottleneck(c.candidates()[j][k], free);
        if (extra > 0) {
          chosen[i][j] = k;
          rates[i][c.flow()[j]] += extra;
          PathRate.take(c.candidates()[j][k], extra, free);
        }
      }
    }
  }
}
