/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.FlowTable;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.PairwisePolicy;
import org.coflowshuffle.core.util.IndexedMinHeap;

/**
 * Runs a {@link PairwisePolicy} by host pair instead of by flow, to the same events and completion
 * times as {@link ScheduleRunner#completionTimes(Instance,
 * org.coflowshuffle.core.policy.SchedulingPolicy, double)} up to rounding: that runner counts a
 * flow done at a step's end when no more than a billionth of its bytes is left (a sliver rounding
 * leaves), where this one ends it when its pair's clock is through, so that at coarse resolutions a
 * decision may see such a flow still in flight (on the {@code fb} replay at the default resolution,
 * completion times differ by at most 3e-5 of their value; exact runs agree to 1e-13). Under
 * per-flow fair sharing with random placement, the paper's widest setting (1,000 coflows of 500 x
 * 500 flows) has nearly every flow in flight for thousands of seconds; moving each of them at every
 * event, as the flow runner does, is hours of work, where the pairs number at most hosts squared
 * and change rate only when the policy decides.
 *
 * <p>How: all flows between the same two hosts move at their pair's rate, so a pair keeps one
 * clock, the bytes each of its flows has received since the pair was first used. A flow that joins
 * when the clock reads c with b bytes ends when it reads c + b, so a pair's flows wait in a heap by
 * that reading and the pairs in a heap by when their first flow ends: a decision costs O(pairs),
 * and a flow ending O(log pairs + log flows of its pair). Between decisions flows end one by one in
 * time order, so the run stops exactly when a coflow's last flow ends, as the flow runner does.
 *
 * <p>For instances on one non-blocking switch where every host has unlimited reducer slots ({@link
 * #accepts}), which is what lets a scheme place every reducer at arrival and keeps rates per pair.
 * Keeps no per-flow schedule: per coflow its placement and completion.
 */
public final class PairRunner {

  private final Instance instance;
  private final PairwisePolicy policy;
  private final double resolution;
  private final List<Host> hosts;
  private final int m;
  private final int[] pairAt; // src * m + dst -> pair, or -1 before the pair's first flow
  private int[] from = new int[64];
  private int[] to = new int[64];
  // inFlight and firstEnd mirror each pair's heap (its size and first end), so that a decision's
  // loops over every pair read arrays instead of a quarter of a million heap objects
  private int[] inFlight = new int[64]; // flows of the pair that have bytes left
  private double[] rate = new double[64]; // of each of the pair's flows since the last decision
  private double[] clock = new double[64]; // bytes each flow of the pair received, read at `since`
  private FlowHeap[] flows = new FlowHeap[64];
  private double[] firstEnd = new double[64]; // clock reading at which the pair's first flow ends
  private int pairs;
  private double since; // time of the last decision
  private final IndexedMinHeap byEnd = new IndexedMinHeap(64); // pairs moving, by first flow end
  private final int[] open; // per coflow, its flows with bytes left
  private final int[][] hostOf;
  private final double[] finish;

  private PairRunner(Instance instance, PairwisePolicy policy, double resolution) {
    if (!accepts(instance)) {
      throw new IllegalArgumentException(
          "the pair runner needs one non-blocking switch and unlimited reducer slots");
    }
    RunnerRules.checkResolution(resolution);
    this.instance = instance;
    this.policy = policy;
    this.resolution = resolution;
    this.hosts = instance.hosts();
    this.m = hosts.size();
    this.pairAt = new int[m * m];
    Arrays.fill(pairAt, -1);
    int n = instance.coflows().size();
    this.open = new int[n];
    this.hostOf = new int[n][];
    this.finish = new double[n];
    Arrays.fill(finish, Double.NaN);
  }

  /**
   * True when a pairwise policy's run by pairs is the same as its run by flows: one non-blocking
   * switch, and no host that runs reducers has a slot limit.
   */
  public static boolean accepts(Instance instance) {
    if (!instance.fabric().isBigSwitch()) {
      return false;
    }
    for (Host h : instance.hosts()) {
      if (h.canHostReducers() && h.reducerSlots() != Host.UNLIMITED_SLOTS) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs {@code policy} on {@code instance} until every coflow is complete, a flow ending that does
   * not end its coflow waking the policy at the given resolution as in {@link
   * ScheduleRunner#completionTimes(Instance, org.coflowshuffle.core.policy.SchedulingPolicy,
   * double)} (0 is exact).
   *
   * @throws IllegalArgumentException where {@link #accepts} is false
   * @throws IllegalStateException when the policy breaks a capacity, leaves a reducer without a
   *     host or stalls
   */
  public static Schedule completionTimes(
      Instance instance, PairwisePolicy policy, double resolution) {
    return new PairRunner(instance, policy, resolution).run();
  }

  private Schedule run() {
    List<Coflow> coflows = instance.coflows();
    Integer[] order = RunnerRules.arrivalOrder(coflows);
    int next = 0; // next arrival, in order
    int oldest = 0; // first coflow in arrival order that may still be active
    int active = 0;
    double now = order.length > 0 ? coflows.get(order[0]).arrival() : 0;
    since = now;
    while (next < order.length || active > 0) {
      int first = next;
      while (next < order.length && coflows.get(order[next]).arrival() <= now) {
        next++;
      }
      if (active == 0 && first == next) {
        now = coflows.get(order[next]).arrival();
        continue;
      }
      readClocks(now);
      if (next > first) {
        active += arrive(Arrays.copyOfRange(order, first, next), now);
      }
      decide(now);
      while (oldest < next && !Double.isNaN(finish[order[oldest]])) {
        oldest++;
      }
      double nextArrival =
          next < order.length ? coflows.get(order[next]).arrival() : Double.POSITIVE_INFINITY;
      double firstFlowEnd = byEnd.isEmpty() ? Double.POSITIVE_INFINITY : byEnd.firstKey();
      double tick =
          active > 0
              ? now + resolution * (now - coflows.get(order[oldest]).arrival())
              : Double.POSITIVE_INFINITY;
      double until = Math.min(nextArrival, Math.max(firstFlowEnd, tick));
      if (until == Double.POSITIVE_INFINITY) {
        if (active > 0) {
          throw RunnerRules.stalled(policy.name(), now, active);
        }
        continue;
      }
      double[] stop = {until};
      active -= endFlows(stop);
      now = stop[0];
    }
    List<CoflowSchedule> out = new ArrayList<>(coflows.size());
    for (int c = 0; c < coflows.size(); c++) {
      out.add(new CoflowSchedule(c, coflows.get(c).arrival(), finish[c], hostOf[c]));
    }
    return new Schedule(policy.name(), instance, out, List.of());
  }

  /** Brings every pair's clock to {@code now} at the rates of the last decision. */
  private void readClocks(double now) {
    double dt = now - since;
    for (int p = 0; p < pairs; p++) {
      clock[p] += rate[p] * dt;
    }
    since = now;
  }

  /**
   * Places the arriving coflows and puts their flows on their pairs; returns how many of them are
   * active (those with bytes to move over the network; the others complete now).
   */
  private int arrive(Integer[] arriving, double now) {
    List<ActiveCoflow> view = new ArrayList<>(arriving.length);
    for (int c : arriving) {
      Coflow coflow = instance.coflows().get(c);
      FlowTable t = coflow.table();
      int n = coflow.reducers().size();
      int[] pinnedHost = new int[n];
      boolean[] pinned = new boolean[n];
      for (int r = 0; r < n; r++) {
        pinnedHost[r] = coflow.reducers().get(r).pinnedHost();
        pinned[r] = pinnedHost[r] >= 0;
      }
      view.add(
          new ActiveCoflow(
              c,
              coflow,
              t.sizes(), // read-only during the call, as the flow runner hands its own arrays
              0,
              pinnedHost,
              pinned,
              now - coflow.arrival(),
              0,
              t.sources(),
              t.reducers(),
              null));
    }
    int[][] placed = policy.placements(new ClusterView(now, hosts, view, new int[m]));
    if (placed.length != arriving.length) {
      throw violation(now, "placed " + placed.length + " of " + arriving.length + " new coflows");
    }
    int activated = 0;
    for (int i = 0; i < arriving.length; i++) {
      int c = arriving[i];
      hostOf[c] = checkedPlacement(view.get(i), placed[i], now);
      FlowTable t = instance.coflows().get(c).table();
      int[] src = t.sources();
      int[] reducer = t.reducers();
      double[] bytes = t.sizes();
      for (int k = 0; k < bytes.length; k++) {
        int h = hostOf[c][reducer[k]];
        if (bytes[k] > 0 && h != src[k]) {
          int p = pair(src[k], h);
          firstEnd[p] = flows[p].add(clock[p] + bytes[k], c);
          inFlight[p]++;
          open[c]++;
        }
      }
      if (open[c] > 0) {
        activated++;
      } else {
        finish[c] = now; // every byte is local: done once placed
      }
    }
    return activated;
  }

  /** The policy's hosts for a new coflow, checked: every reducer placed, pinned ones kept. */
  private int[] checkedPlacement(ActiveCoflow a, int[] placed, double now) {
    Coflow coflow = a.coflow();
    if (placed.length != coflow.reducers().size()) {
      throw violation(now, "placement of coflow " + coflow.id() + " has the wrong shape");
    }
    for (int r = 0; r < placed.length; r++) {
      int h = placed[r];
      if (a.pinned()[r] ? h != a.hostOf()[r] : h < 0 || h >= m || !hosts.get(h).canHostReducers()) {
        throw violation(now, "placed reducer " + coflow.reducers().get(r).id() + " on host " + h);
      }
    }
    return placed.clone();
  }

  /** The pair from {@code u} to {@code h}, made on its first flow. */
  private int pair(int u, int h) {
    int p = pairAt[u * m + h];
    if (p >= 0) {
      return p;
    }
    if (pairs == from.length) {
      int n = 2 * pairs;
      from = Arrays.copyOf(from, n);
      to = Arrays.copyOf(to, n);
      inFlight = Arrays.copyOf(inFlight, n);
      rate = Arrays.copyOf(rate, n);
      clock = Arrays.copyOf(clock, n);
      flows = Arrays.copyOf(flows, n);
      firstEnd = Arrays.copyOf(firstEnd, n);
      byEnd.ensureItems(n);
    }
    p = pairs++;
    pairAt[u * m + h] = p;
    from[p] = u;
    to[p] = h;
    flows[p] = new FlowHeap();
    return p;
  }

  /** Asks the policy for the rates of every pair in flight, checks them and orders the pairs. */
  private void decide(double now) {
    int n = 0;
    for (int p = 0; p < pairs; p++) {
      n += inFlight[p] > 0 ? 1 : 0;
    }
    int[] moving = new int[n];
    int[] src = new int[n];
    int[] dst = new int[n];
    int[] count = new int[n];
    n = 0;
    for (int p = 0; p < pairs; p++) {
      rate[p] = 0;
      if (inFlight[p] > 0) {
        moving[n] = p;
        src[n] = from[p];
        dst[n] = to[p];
        count[n++] = inFlight[p];
      }
    }
    double[] perFlow = policy.pairRates(hosts, src, dst, count);
    if (perFlow.length != n) {
      throw violation(now, "returned " + perFlow.length + " rates for " + n + " host pairs");
    }
    double[] in = new double[m];
    double[] out = new double[m];
    double[] ends = new double[n];
    int ordered = 0; // pairs that move, first in moving[] and their first flow's end in ends[]
    for (int i = 0; i < n; i++) {
      int p = moving[i];
      double r = perFlow[i];
      if (!(r >= 0) || Double.isInfinite(r)) {
        throw violation(now, "gave the flows from host " + src[i] + " to " + dst[i] + " rate " + r);
      }
      rate[p] = r;
      in[dst[i]] += r * count[i];
      out[src[i]] += r * count[i];
      if (r > 0) {
        moving[ordered] = p;
        ends[ordered++] = now + (firstEnd[p] - clock[p]) / r;
      }
    }
    byEnd.fill(moving, ends, ordered);
    RunnerRules.checkHostLinks(policy.name(), now, hosts, in, out);
  }

  /**
   * Ends the flows whose bytes are through by {@code stop[0]}, in time order, and moves {@code
   * stop[0]} back to the moment a coflow completes if one does before it; returns how many coflows
   * completed.
   */
  private int endFlows(double[] stop) {
    int completed = 0;
    while (!byEnd.isEmpty()) {
      int p = byEnd.first();
      double t = byEnd.firstKey();
      if (t > stop[0] && !sliver(p, stop[0])) {
        break;
      }
      t = Math.min(t, stop[0]);
      int c = flows[p].removeFirst();
      firstEnd[p] = flows[p].firstEnd();
      inFlight[p]--;
      if (--open[c] == 0) {
        finish[c] = t;
        completed++;
        stop[0] = t; // the coflow completes: the next decision comes now
      }
      if (inFlight[p] > 0) {
        byEnd.set(p, since + (firstEnd[p] - clock[p]) / rate[p]);
      } else {
        byEnd.remove(p);
      }
    }
    return completed;
  }

  /**
   * Whether the first flow of pair p has no more than a rounding sliver left at {@code t}, as the
   * flow runner counts such a flow done (at large times, now + sliver / rate rounds back to now).
   */
  private boolean sliver(int p, double t) {
    return firstEnd[p] - (clock[p] + rate[p] * (t - since)) <= 1e-6;
  }

  private IllegalStateException violation(double now, String what) {
    return RunnerRules.violation(policy.name(), now, what);
  }

  /**
   * The flows of one pair by the clock reading at which each ends, with its coflow: a four-ary heap
   * (half the levels of a binary one) over two primitive arrays, since a pair may hold a thousand
   * flows and a run a quarter of a billion.
   */
  private static final class FlowHeap {
    private double[] end = new double[4];
    private int[] coflow = new int[4];
    private int size;

    /** Adds a flow; returns the end of the first. */
    double add(double e, int c) {
      if (size == end.length) {
        int n = size + (size >> 1) + 1;
        end = Arrays.copyOf(end, n);
        coflow = Arrays.copyOf(coflow, n);
      }
      int i = size++;
      while (i > 0 && e < end[(i - 1) >> 2]) {
        int parent = (i - 1) >> 2;
        end[i] = end[parent];
        coflow[i] = coflow[parent];
        i = parent;
      }
      end[i] = e;
      coflow[i] = c;
      return end[0];
    }

    /** The end of the first flow; meaningless when the heap is empty. */
    double firstEnd() {
      return end[0];
    }

    /** Removes the flow that ends first; returns its coflow. */
    int removeFirst() {
      int c = coflow[0];
      double e = end[--size];
      int ec = coflow[size];
      int i = 0;
      while (true) {
        int first = 4 * i + 1;
        if (first >= size) {
          break;
        }
        int least = first;
        for (int child = first + 1; child < Math.min(first + 4, size); child++) {
          if (end[child] < end[least]) {
            least = child;
          }
        }
        if (end[least] >= e) {
          break;
        }
        end[i] = end[least];
        coflow[i] = coflow[least];
        i = least;
      }
      end[i] = e;
      coflow[i] = ec;
      return c;
    }
  }
}
