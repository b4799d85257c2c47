/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.FlowTable;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.RemainingTotals;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * Runs a policy on an instance exactly, event by event: rates are constant between events (a coflow
 * arrives, a flow finishes, the policy asked to be woken), so the schedule is exact, with no time
 * step. Checks every decision against the cluster's capacities and slots and fails loudly on a
 * policy that breaks them, so a scheme cannot report a CCT it could not achieve.
 *
 * <p>It is one class, longer than most, because the event loop, the capacity checks and the
 * bookkeeping of bytes left share one set of per-flow arrays, which {@link PairRunner} mirrors for
 * the schemes that go by host pair.
 */
public final class ScheduleRunner {

  private final Instance instance;
  private final SchedulingPolicy policy;
  private final boolean keepSegments;
  private final double resolution;
  private final List<Host> hosts;
  private final State[] states;

  private ScheduleRunner(
      Instance instance, SchedulingPolicy policy, boolean keepSegments, double resolution) {
    RunnerRules.checkResolution(resolution);
    this.instance = instance;
    this.policy = policy;
    this.keepSegments = keepSegments;
    this.resolution = resolution;
    this.hosts = instance.hosts();
    this.states = new State[instance.coflows().size()];
  }

  /** Runs {@code policy} on {@code instance} until every coflow is complete. */
  public static Schedule run(Instance instance, SchedulingPolicy policy) {
    return new ScheduleRunner(instance, policy, true, 0).run();
  }

  /**
   * Like {@link #run} but keeps no per-flow rates: the schedule has every coflow's placement and
   * completion and no flows. For large runs where only completion times matter, since a segment
   * list per flow is most of the memory.
   */
  public static Schedule completionTimes(Instance instance, SchedulingPolicy policy) {
    return completionTimes(instance, policy, 0);
  }

  /**
   * Like {@link #completionTimes(Instance, SchedulingPolicy)}, but a flow that ends before its
   * coflow does not wake the policy at once: the next decision comes at the first arrival, coflow
   * completion or policy wake-up, or once {@code resolution} times the age of the oldest active
   * coflow has passed since the last decision, whichever is first. Flows still end exactly when
   * their bytes are through and coflows complete exactly when their last flow does; only the
   * bandwidth a finished flow frees waits for the next decision. This bounds the decisions of a run
   * with wide coflows (where every flow ending is an event) to about {@code ln(span) / resolution}
   * beyond the arrivals and completions. 0 is the exact run.
   */
  public static Schedule completionTimes(
      Instance instance, SchedulingPolicy policy, double resolution) {
    return new ScheduleRunner(instance, policy, false, resolution).run();
  }

  /**
   * Mutable progress of one coflow. Its per-flow arrays are the coflow's own ({@link FlowTable})
   * where they do not change, and those that do are dropped when it completes unless segments are
   * kept, so a long run holds per-flow state only for the coflows active at once.
   */
  private static final class State {
    final int index;
    final Coflow coflow;
    double[] remaining;
    final int[] hostOf;
    final boolean[] pinned;
    final int[] open; // per reducer: its flows with bytes left
    final int[] src; // per flow, as plain arrays for the loops over every flow (read-only)
    final int[] reducer;
    final double[] bytes;
    boolean pinnedSinceSweep = true; // reducers pinned whose local flows are not yet cleared
    boolean moving; // some flow has a rate: the loops over every flow skip the coflow otherwise
    double firstEnd; // when the first and the last of its moving flows end at the current rates
    double lastEnd;
    int waiting; // flows with bytes left and no rate: the coflow cannot end before a decision
    final boolean[] sends; // per host: some flow of the coflow comes from it (so may be local)
    final List<List<Segment>> segments;
    double[] rates;
    double finish = Double.NaN;
    long version;
    RemainingTotals totals; // of remaining at totalsVersion
    long totalsVersion = -1;
    double sent; // bytes moved over the network so far, local flows not counted
    double waited; // seconds with no flow moving, up to waitedUntil (what the policy sees)
    double waitedUntil;

    State(int index, Coflow coflow, boolean keepSegments, int instanceHosts) {
      this.index = index;
      this.coflow = coflow;
      waitedUntil = coflow.arrival();
      FlowTable table = coflow.table();
      src = table.sources();
      reducer = table.reducers();
      bytes = table.sizes();
      int k = bytes.length;
      remaining = bytes.clone();
      int n = coflow.reducers().size();
      hostOf = new int[n];
      pinned = new boolean[n];
      open = new int[n];
      for (int i = 0; i < k; i++) {
        if (remaining[i] > 0) {
          open[reducer[i]]++;
        }
      }
      for (int r = 0; r < n; r++) {
        hostOf[r] = coflow.reducers().get(r).pinnedHost();
        pinned[r] = hostOf[r] >= 0;
      }
      segments = new ArrayList<>(keepSegments ? k : 0);
      for (int i = 0; keepSegments && i < k; i++) {
        segments.add(new ArrayList<>());
      }
      rates = new double[k];
      sends = new boolean[instanceHosts];
      for (int s : src) {
        sends[s] = true;
      }
    }

    boolean done() {
      return !Double.isNaN(finish);
    }

    /** The coflow completed: what changes per flow is no longer needed, unless segments are. */
    void release(boolean keepSegments) {
      if (!keepSegments) {
        remaining = null;
        rates = null;
        totals = null;
      }
    }

    /**
     * The remaining bytes per reducer and source, summed again only when they changed since {@link
     * #advance} summed them: the runner keeps them for the policy, as whoever reports progress
     * would live.
     */
    RemainingTotals totals(int hosts) {
      if (totalsVersion != version) {
        totals = RemainingTotals.of(remaining, reducer, src, hostOf.length, hosts);
        totalsVersion = version;
      }
      return totals;
    }
  }

  private Schedule run() {
    Integer[] order = RunnerRules.arrivalOrder(instance.coflows());
    List<State> active = new ArrayList<>();
    int next = 0;
    double now = order.length > 0 ? instance.coflows().get(order[0]).arrival() : 0;
    while (next < order.length || !active.isEmpty()) {
      while (next < order.length && instance.coflows().get(order[next]).arrival() <= now) {
        int i = order[next++];
        states[i] = new State(i, instance.coflows().get(i), keepSegments, hosts.size());
        active.add(states[i]);
      }
      if (active.isEmpty()) {
        now = instance.coflows().get(order[next]).arrival();
        continue;
      }
      Decision decision = policy.decide(view(now, active));
      double wakeUp = apply(decision, active, now);
      finishIdle(active, now, keepSegments);
      double nextArrival =
          next < order.length
              ? instance.coflows().get(order[next]).arrival()
              : Double.POSITIVE_INFINITY;
      double until = Math.min(nextArrival, wakeUp > now ? wakeUp : Double.POSITIVE_INFINITY);
      double firstFlowEnd = Double.POSITIVE_INFINITY;
      double oldest = Double.POSITIVE_INFINITY;
      for (State s : active) {
        oldest = Math.min(oldest, s.coflow.arrival());
        if (!s.moving) {
          continue; // no flow ends, and the coflow waits for the policy
        }
        firstFlowEnd = Math.min(firstFlowEnd, s.firstEnd);
        // a flow that waits keeps the coflow from ending before the policy acts; otherwise stop
        // when its last moving flow ends, so that a coflow completes exactly at a step's end
        until = Math.min(until, s.waiting > 0 ? Double.POSITIVE_INFINITY : s.lastEnd);
      }
      until = Math.min(until, Math.max(firstFlowEnd, now + resolution * (now - oldest)));
      if (until == Double.POSITIVE_INFINITY) {
        finishIdle(active, now, keepSegments);
        if (!active.isEmpty()) {
          throw RunnerRules.stalled(policy.name(), now, active.size());
        }
        continue;
      }
      advance(active, now, until);
      now = until;
      finishIdle(active, now, keepSegments);
    }
    return result();
  }

  private ClusterView view(double now, List<State> active) {
    List<ActiveCoflow> coflows = new ArrayList<>(active.size());
    int[] slotsInUse = new int[hosts.size()];
    for (State s : active) {
      if (!s.moving) { // none of its flows moved since the last decision: it waited
        s.waited += now - s.waitedUntil;
      }
      s.waitedUntil = now;
      coflows.add(
          new ActiveCoflow(
              s.index,
              s.coflow,
              s.remaining, // read-only during the call; saves copying every flow per event
              s.sent,
              s.hostOf.clone(),
              s.pinned.clone(),
              s.waited,
              s.version,
              s.src,
              s.reducer,
              s.totals(hosts.size())));
      boolean[] busy = busyReducers(s);
      for (int r = 0; r < busy.length; r++) {
        if (busy[r]) {
          slotsInUse[s.hostOf[r]]++;
        }
      }
    }
    return new ClusterView(now, hosts, coflows, slotsInUse, instance.fabric());
  }

  /** Pinned reducers that still have bytes to fetch: they hold a slot. */
  private static boolean[] busyReducers(State s) {
    boolean[] busy = new boolean[s.hostOf.length];
    for (int r = 0; r < busy.length; r++) {
      busy[r] = s.pinned[r] && s.open[r] > 0;
    }
    return busy;
  }

  /** Checks and applies a decision; returns the policy's wake-up time. */
  private double apply(Decision d, List<State> active, double now) {
    if (d.assignments().size() != active.size()) {
      throw violation(
          now,
          "returned " + d.assignments().size() + " assignments for " + active.size() + " coflows");
    }
    double[] in = new double[hosts.size()];
    double[] out = new double[hosts.size()];
    Fabric fabric = instance.fabric();
    double[] load = new double[fabric.links()]; // inner links only; host links in in[] and out[]
    for (int i = 0; i < active.size(); i++) {
      State s = active.get(i);
      CoflowAssignment a = d.assignments().get(i);
      if (a.hostOf().length != s.hostOf.length || a.rates().length != s.remaining.length) {
        throw violation(now, "assignment of coflow " + s.coflow.id() + " has the wrong shape");
      }
      for (int r = 0; r < s.hostOf.length; r++) {
        int h = a.hostOf()[r];
        if (s.pinned[r]) {
          if (h != s.hostOf[r]) {
            throw violation(now, "moved pinned reducer " + s.coflow.reducers().get(r).id());
          }
        } else if (h >= 0) {
          if (h >= hosts.size() || !hosts.get(h).canHostReducers()) {
            throw violation(
                now, "placed reducer " + s.coflow.reducers().get(r).id() + " on host " + h);
          }
          s.hostOf[r] = h;
        } else {
          s.hostOf[r] = -1;
        }
      }
      double[] rates = a.rates();
      s.moving = false;
      s.firstEnd = Double.POSITIVE_INFINITY;
      s.lastEnd = Double.NEGATIVE_INFINITY;
      int movingFlows = 0;
      for (int k = 0; k < rates.length; k++) {
        double rate = rates[k];
        if (rate == 0) { // most flows of a wide run: touch nothing else
          s.rates[k] = 0;
          continue;
        }
        int r = s.reducer[k];
        int h = s.hostOf[r];
        if (!(rate >= 0) || Double.isInfinite(rate)) {
          throw violation(now, "gave flow " + k + " of " + s.coflow.id() + " rate " + rate);
        }
        if (rate > 0 && (h < 0 || h == s.src[k] || s.remaining[k] <= 0)) {
          rate = 0; // nothing to send over the network: the rate is moot
        }
        s.rates[k] = rate;
        if (rate > 0) {
          movingFlows++;
          double end = now + s.remaining[k] / rate;
          s.firstEnd = Math.min(s.firstEnd, end);
          s.lastEnd = Math.max(s.lastEnd, end);
          s.moving = true;
          if (!s.pinned[r]) {
            s.version++;
            s.pinnedSinceSweep = true;
          }
          s.pinned[r] = true;
          in[h] += rate;
          out[s.src[k]] += rate;
          if (!fabric.isBigSwitch()) {
            route(a, s, k, h, rate, load, now);
          }
        }
      }
      pinReducersWithNothingToFetch(s);
      s.waiting = -movingFlows; // flows with bytes left less those moving
      for (int open : s.open) {
        s.waiting += open;
      }
    }
    double[] capacity = fabric.capacities(hosts);
    for (int l = 2 * hosts.size(); l < load.length; l++) {
      if (load[l] > capacity[l] * (1 + RunnerRules.RATE_SLACK) + 1e-6) {
        throw violation(
            now,
            "exceeded inner link "
                + (l - 2 * hosts.size())
                + " of "
                + fabric.name()
                + " ("
                + load[l]
                + " of "
                + capacity[l]
                + " B/s)");
      }
    }
    RunnerRules.checkHostLinks(policy.name(), now, hosts, in, out);
    int[] used = new int[hosts.size()];
    for (State s : active) {
      boolean[] busy = busyReducers(s);
      for (int r = 0; r < busy.length; r++) {
        if (busy[r] && ++used[s.hostOf[r]] > hosts.get(s.hostOf[r]).reducerSlots()) {
          throw violation(now, "exceeded the reducer slots of host " + hosts.get(s.hostOf[r]).id());
        }
      }
    }
    return d.wakeUpAt();
  }

  /** Adds a moving flow's rate to the inner links of the path its assignment names. */
  private void route(
      CoflowAssignment a, State s, int k, int h, double rate, double[] load, double now) {
    int[][] candidates = instance.fabric().paths(s.src[k], h);
    int p = a.paths() == null || a.paths().length != s.remaining.length ? -1 : a.paths()[k];
    if (p < 0 || p >= candidates.length) {
      throw violation(
          now,
          "gave flow "
              + k
              + " of "
              + s.coflow.id()
              + " a rate but no path of "
              + candidates.length
              + " on "
              + instance.fabric().name());
    }
    for (int l : candidates[p]) {
      load[l] += rate;
    }
  }

  /**
   * A placed reducer whose remaining input is all on its own host needs no bandwidth: it starts at
   * once and its local flows are done.
   */
  private static void pinReducersWithNothingToFetch(State s) {
    boolean anyPlacedUnpinned = false;
    boolean anyLocal = false; // some reducer is on a host that sends the coflow something
    for (int r = 0; r < s.hostOf.length; r++) {
      anyPlacedUnpinned |= s.hostOf[r] >= 0 && !s.pinned[r];
      anyLocal |= s.hostOf[r] >= 0 && s.sends[s.hostOf[r]];
    }
    if (!anyPlacedUnpinned && !s.pinnedSinceSweep) {
      return; // nothing started since the last sweep: no flow can have become local
    }
    s.pinnedSinceSweep = false;
    if (!anyLocal) { // no flow is local: a reducer fetches exactly while it has flows open
      for (int r = 0; r < s.hostOf.length; r++) {
        if (s.hostOf[r] >= 0 && s.open[r] == 0 && !s.pinned[r]) {
          s.pinned[r] = true;
          s.version++;
        }
      }
      return;
    }
    boolean[] fetches = new boolean[s.hostOf.length];
    for (int k = 0; k < s.remaining.length; k++) {
      if (s.remaining[k] > 0 && s.hostOf[s.reducer[k]] != s.src[k]) {
        fetches[s.reducer[k]] = true;
      }
    }
    for (int r = 0; r < fetches.length; r++) {
      if (s.hostOf[r] >= 0 && !fetches[r] && !s.pinned[r]) {
        s.pinned[r] = true;
        s.version++;
      }
    }
    for (int k = 0; k < s.remaining.length; k++) {
      int r = s.reducer[k];
      if (s.pinned[r] && s.hostOf[r] == s.src[k] && s.remaining[k] > 0) {
        s.remaining[k] = 0; // local: crosses no link
        s.open[r]--;
        s.version++;
      }
    }
  }

  private void advance(List<State> active, double now, double until) {
    double dt = until - now;
    for (State s : active) {
      if (!s.moving) {
        continue;
      }
      boolean moved = false;
      // The totals of what is left, summed in the same pass (in flow order, as RemainingTotals.of)
      double[] perReducer = new double[s.hostOf.length];
      double[] perSource = new double[hosts.size()];
      for (int k = 0; k < s.rates.length; k++) {
        double rate = s.rates[k];
        if (rate <= 0) {
          perReducer[s.reducer[k]] += s.remaining[k];
          perSource[s.src[k]] += s.remaining[k];
          continue;
        }
        moved = true;
        double end = now + s.remaining[k] / rate;
        if (keepSegments) {
          record(s.segments.get(k), now, Math.min(end, until), rate);
        }
        // A flow whose completion time (as computed for the event) is not after it is done, even
        // if rounding leaves a sliver: at large times now + sliver / rate rounds back to now and
        // the run would never move again.
        if (end <= until || s.remaining[k] - rate * dt <= 1e-9 * s.bytes[k] + 1e-6) {
          s.sent += s.remaining[k];
          s.remaining[k] = 0;
          s.open[s.reducer[k]]--;
        } else {
          s.sent += rate * dt;
          s.remaining[k] -= rate * dt;
        }
        perReducer[s.reducer[k]] += s.remaining[k];
        perSource[s.src[k]] += s.remaining[k];
      }
      if (moved) {
        s.version++;
        s.totals = new RemainingTotals(perReducer, perSource);
        s.totalsVersion = s.version;
      }
    }
  }

  /** Appends a constant-rate stretch, merged with the previous one when it continues it. */
  private static void record(List<Segment> segs, double now, double until, double rate) {
    Segment last = segs.isEmpty() ? null : segs.get(segs.size() - 1);
    if (last != null && last.end() == now && Math.abs(last.rate() - rate) <= 1e-12 * rate) {
      segs.set(segs.size() - 1, new Segment(last.start(), until, last.rate()));
    } else {
      segs.add(new Segment(now, until, rate));
    }
  }

  /** Marks coflows complete whose reducers all have a host and whose flows all arrived. */
  private static void finishIdle(List<State> active, double now, boolean keepSegments) {
    active.removeIf(
        s -> {
          for (boolean p : s.pinned) {
            if (!p) {
              return false;
            }
          }
          for (int open : s.open) { // per reducer: O(reducers), not O(flows)
            if (open > 0) {
              return false;
            }
          }
          s.finish = now; // steps never pass a coflow's last flow ending: it is exact
          s.release(keepSegments);
          return true;
        });
  }

  private IllegalStateException violation(double now, String what) {
    return RunnerRules.violation(policy.name(), now, what);
  }

  private Schedule result() {
    List<CoflowSchedule> coflows = new ArrayList<>();
    List<FlowSchedule> flows = new ArrayList<>();
    for (State s : states) {
      coflows.add(new CoflowSchedule(s.index, s.coflow.arrival(), s.finish, s.hostOf.clone()));
      for (int k = 0; keepSegments && k < s.remaining.length; k++) {
        int dst = s.hostOf[s.coflow.flows().get(k).reducer()];
        flows.add(new FlowSchedule(s.index, k, dst, s.segments.get(k)));
      }
    }
    return new Schedule(policy.name(), instance, coflows, flows);
  }
}
