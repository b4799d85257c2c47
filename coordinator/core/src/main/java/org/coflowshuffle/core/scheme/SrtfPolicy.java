/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.plan.CoflowDemand;
import org.coflowshuffle.core.plan.CoflowPlan;
import org.coflowshuffle.core.plan.CoflowShape;
import org.coflowshuffle.core.plan.CommittedRates;
import org.coflowshuffle.core.plan.NetworkProfile;
import org.coflowshuffle.core.plan.PlanEvaluator;
import org.coflowshuffle.core.plan.Planner;
import org.coflowshuffle.core.plan.RateRule;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.WaveRule;

/**
 * Algorithm 1 of the RPC paper: serve coflows one at a time, shortest estimated completion first,
 * each planned against the bandwidth the coflows before it have left (so a coflow planned later
 * sees when each host frees up); coflows that have waited longer than the threshold delta with none
 * of their flows moving go first, oldest first (lines 6-9). Re-run on every arrival and flow
 * completion, so a shorter arrival preempts.
 *
 * <p>Instead of re-planning every remaining coflow after each commit (O(C^2) plans), plans are kept
 * in a queue keyed by their last estimate and re-planned only when they reach its head. B only
 * shrinks as coflows are committed, so with an exact planner an old estimate is a lower bound and
 * the coflow chosen is the one the full loop would choose. The placement heuristics can find a
 * better plan on less bandwidth, so the choice can, rarely, differ. Once no coflow left {@linkplain
 * Planner#mayReceiveNow may receive now} (no host it may use has bandwidth free now: under a stream
 * of arrivals the slow hosts that no large coflow may take are often the only ones left), the
 * coflows not yet served get no rate whatever their plan, so planning stops there unless the
 * bandwidth is handed out later (work-conserving) or every coflow's placement is wanted ({@link
 * SchemeOptions#placeAll}); they are ordered again at the next event. Their plans would only have
 * booked bandwidth for later coflows that also get none, so the rates are the same without them,
 * and under a stream of arrivals such coflows can be most of those waiting.
 *
 * <p>The queue starts from LP (3)'s lower bound of each coflow, so a coflow is planned only when it
 * nears the head. A coflow's aggregated demand is kept across invocations while it is unchanged,
 * and so is its last commit, from which the next one rewrites only the rates that change ({@link
 * CommittedRates}).
 *
 * <p>Where a coflow's reducers do not all fit the free slots (section IV-D, multi-wave), {@link
 * WaveRule} says how it is served: as one unit whose estimate adds its later wave ({@link
 * WaveRule#WHOLE}), keyed by its current wave alone ({@link WaveRule#PER_WAVE}), or in the
 * background until its last wave fits ({@link WaveRule#LAST_WAVE}, {@link EarlyWaves}).
 *
 * <p>A coflow of {@linkplain Coflow#weight weight} w other than 1 is ordered by its remaining time
 * over w (weighted shortest remaining time first, which minimizes the weighted sum of completion
 * times on one link): live, a Spark pool of weight 3 has its shuffles served ahead of ones up to
 * three times shorter. With every weight 1 this is the paper's order.
 */
public final class SrtfPolicy implements SchedulingPolicy {

  private final String name;
  private final Planner planner;
  private final RateRule rates;
  private final SchemeOptions options;
  private static final int SPARE_RATES = 4;

  private final boolean planEvery; // no early stop (see the class comment)

  public SrtfPolicy(String name, Planner planner, RateRule rates, SchemeOptions options) {
    this(name, planner, rates, options, options.placeAll());
  }

  private SrtfPolicy(
      String name, Planner planner, RateRule rates, SchemeOptions options, boolean planEvery) {
    this.name = name;
    this.planner = planner;
    this.rates = rates;
    this.options = options;
    this.planEvery = planEvery;
  }

  /** The same scheme planning every coflow at each invocation, without the early stop. */
  SrtfPolicy planningEvery() {
    return new SrtfPolicy(name, planner, rates, options, true);
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * A coflow in the queue: {@code key} is a lower bound of its completion against the current B
   * ({@link #key}: of its remaining time over its weight), and exact, with {@code plan}, when
   * {@code version} is B's current epoch (no coflow served since the plan was made).
   */
  private record Entry(
      double key, int index, int version, CoflowDemand demand, CoflowPlan plan, boolean polished) {}

  /**
   * A coflow's shape, valid while the scheme is shown the same coflow object, and whether its
   * senders may host reducers, valid for the same list of hosts.
   */
  private record Shaped(Coflow coflow, CoflowShape shape, List<Host> hosts, boolean locality) {}

  private final Map<Integer, Shaped> shapes = new HashMap<>();
  private final Map<Integer, CoflowDemand> demands = new HashMap<>();
  // The rates last committed per coflow, for coflows committed at the last invocation only: the
  // others did not move at them.
  private final Map<Integer, CommittedRates> committed = new HashMap<>();
  // Shared all-zero rates for coflows left waiting. Safe to share: only the idle-bandwidth fill
  // writes rates, and it runs only when work-conserving, where the planning loop never stops early.
  private final Map<Integer, double[]> zeros = new HashMap<>();
  // Rate arrays of coflows no longer committed (handed out at an earlier invocation, so free to
  // rewrite under CoflowAssignment's contract), for new coflows' first commits.
  private final ArrayDeque<double[]> spareRates = new ArrayDeque<>();
  private final IdleBandwidthFill idle = new IdleBandwidthFill();
  private final EarlyWaves earlyWaves = new EarlyWaves();
  private NetworkProfile network; // the last invocation's B, reset for the next
  // Work-conserving: the first end of a reducer served at this invocation, as its commit planned it
  private double plannedFirstEnd;

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    forgetFinished(active);
    plannedFirstEnd = Double.POSITIVE_INFINITY;
    NetworkProfile net = network(view);
    CoflowAssignment[] out = new CoflowAssignment[active.size()];
    List<Integer> starving = new ArrayList<>();
    double delta = options.starvationThreshold();
    boolean[] early = options.waves() == WaveRule.LAST_WAVE ? EarlyWaves.of(active, net) : null;
    for (int i = 0; i < active.size(); i++) {
      if (early != null && early[i]) {
        continue; // not in its last wave: served in the background below
      }
      if (active.get(i).waitingSince() >= delta) { // >=: it is woken exactly at delta
        starving.add(i);
      }
    }
    // Lines 6-9: coflows past the starvation threshold, oldest first. Not longest waiting first:
    // a starving coflow being served stops waiting, and the others would pass it at every event.
    starving.sort(Comparator.comparingDouble(i -> active.get(i).coflow().arrival()));
    Set<Integer> served = new HashSet<>();
    for (int i : starving) {
      out[i] =
          commit(
              planner.refine(planner.plan(demand(active.get(i), view), net), net),
              net,
              served,
              true);
    }
    // Lines 10-15: shortest estimated completion first, against what is left. Each coflow served
    // starts a new epoch of B.
    net.nextEpoch();
    Comparator<Entry> order =
        (a, b) -> a.key() != b.key() ? Double.compare(a.key(), b.key()) : a.index() - b.index();
    PriorityQueue<Entry> queue = new PriorityQueue<>(order);
    boolean perWave = options.waves() == WaveRule.PER_WAVE && net.slotsLimited();
    for (int i = 0; i < active.size(); i++) {
      if (out[i] == null && (early == null || !early[i])) {
        CoflowDemand d = demand(active.get(i), view);
        double bound =
            perWave ? PlanEvaluator.waveLowerBound(d, net) : PlanEvaluator.lowerBound(d, net);
        queue.add(new Entry(key(bound, d, net), i, -1, d, null, false));
      }
    }
    // Whether some coflow queued may receive now changes only when one is served: not while
    // plans are merely made again and queued back in the same epoch of B.
    int askedAt = -1;
    boolean mayReceive = true;
    boolean[] mayNot = new boolean[active.size()];
    while (!queue.isEmpty()) {
      if (!options.workConserving() && !planEvery && askedAt != net.epoch()) {
        mayReceive = anyMayReceiveNow(queue, net, mayNot);
        askedAt = net.epoch();
      }
      if (!mayReceive) {
        break;
      }
      Entry e = queue.poll();
      if (e.version() != net.epoch()) {
        CoflowPlan p =
            e.plan() == null
                ? planner.plan(e.demand(), net)
                : planner.replan(e.plan(), e.version(), net);
        Entry fresh = entry(p, e, net, false);
        if (!queue.isEmpty() && order.compare(queue.peek(), fresh) < 0 && !p.demand().allPinned()) {
          // About to yield to the head on an unpolished placement: polish it first, as a commit
          // would. The placement methods see only receivers' links, so where slow senders bind,
          // their plan can lose its turn to a coflow it would beat, and is then placed behind it.
          fresh = entry(planner.refine(p, net), e, net, true);
        }
        if (!queue.isEmpty() && order.compare(queue.peek(), fresh) < 0) {
          queue.add(fresh);
          continue;
        }
        e = fresh;
      }
      CoflowPlan plan = e.polished() ? e.plan() : planner.refine(e.plan(), net);
      // B is read after this commit only to plan the coflows left, or to fill idle bandwidth
      boolean readAfter = !queue.isEmpty() || options.workConserving() || early != null;
      out[e.index()] = commit(plan, net, served, readAfter);
      net.nextEpoch();
    }
    for (Entry e : queue) { // nothing they may use is free now: they wait, pinned reducers only
      out[e.index()] =
          new CoflowAssignment(
              e.demand().pinnedHostsShared(),
              zeros.computeIfAbsent(e.demand().active().remaining().length, double[]::new));
    }
    dropUnserved(served);
    if (early != null) {
      earlyWaves.serve(active, i -> demand(active.get(i), view), net, out, early);
    }
    if (options.workConserving()) {
      idle.fill(active, out, net);
    }
    return new Decision(
        Arrays.asList(out), Math.min(wakeUp(active, out, view.now(), delta), firstEnd(view.now())));
  }

  /**
   * When the first reducer served now has all of its bytes: Algorithm 1 runs again at each flow
   * completion, where the bandwidth it frees goes to the coflows waiting. Where no event comes
   * first (a runner that wakes the policy at every coflow's end but not at every flow's), the
   * policy asks to be woken then. When work-conserving, at the first end the commits planned: the
   * fill only adds to rates, so that reducer has its bytes by then, if not before.
   */
  private double firstEnd(double now) {
    double first = plannedFirstEnd > now ? plannedFirstEnd : Double.POSITIVE_INFINITY;
    for (CommittedRates c : committed.values()) {
      double end = c.firstEnd();
      if (end > now && end < first) {
        first = end;
      }
    }
    return first;
  }

  /**
   * B for this invocation: the last one's, reset, while the view shows the same list of hosts (the
   * runner's instance holds an immutable one; the live coordinator makes a new one per view).
   */
  private NetworkProfile network(ClusterView view) {
    if (network != null && network.hosts() == view.hosts()) {
      network.reset(view.now(), view.slotsInUse(), view.slotsFreeing());
    } else {
      network =
          new NetworkProfile(view.now(), view.hosts(), view.slotsInUse(), view.slotsFreeing());
    }
    return network;
  }

  /**
   * Forgets the commits of coflows not served at this invocation (their flows did not move at those
   * rates), keeping a few of their arrays for new coflows.
   */
  private void dropUnserved(Set<Integer> served) {
    for (Iterator<Map.Entry<Integer, CommittedRates>> it = committed.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<Integer, CommittedRates> e = it.next();
      if (!served.contains(e.getKey())) {
        double[] rates = e.getValue().rates();
        if (rates != null && spareRates.size() < SPARE_RATES) {
          spareRates.add(rates);
        }
        it.remove();
      }
    }
  }

  /** A spare array of {@code flows} elements, or null. */
  private double[] spareRates(int flows) {
    for (Iterator<double[]> it = spareRates.iterator(); it.hasNext(); ) {
      double[] rates = it.next();
      if (rates.length == flows) {
        it.remove();
        return rates;
      }
    }
    return null;
  }

  /**
   * When the first coflow left without any rate reaches the threshold, if no event comes first. A
   * coflow with a rate does not wait (see {@link ActiveCoflow#waitingSince}), so it needs none.
   */
  private static double wakeUp(
      List<ActiveCoflow> active, CoflowAssignment[] out, double now, double delta) {
    double wakeUp = Double.POSITIVE_INFINITY;
    if (delta == Double.POSITIVE_INFINITY) {
      return wakeUp; // no threshold: nothing to wake up for, and no pass over the rates
    }
    for (int i = 0; i < active.size(); i++) {
      double waited = active.get(i).waitingSince();
      if (waited < delta && now - waited + delta < wakeUp && !anyRate(out[i].rates())) {
        wakeUp = now - waited + delta;
      }
    }
    return wakeUp;
  }

  private static boolean anyRate(double[] rates) {
    for (double r : rates) {
      if (r > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some coflow queued may receive now. Within one invocation B only fills (each commit
   * takes bandwidth and slots, none is given back), so a coflow that may not receive at one epoch
   * may not at any later one: it is marked in {@code mayNot}, by index, and not asked again.
   */
  private boolean anyMayReceiveNow(
      PriorityQueue<Entry> queue, NetworkProfile net, boolean[] mayNot) {
    for (Entry e : queue) {
      if (!mayNot[e.index()]) {
        if (planner.mayReceiveNow(e.demand(), net)) {
          return true;
        }
        mayNot[e.index()] = true;
      }
    }
    return false;
  }

  /**
   * The queue's key for a coflow that would finish at {@code finish}: the time itself at weight 1.
   */
  private static double key(double finish, CoflowDemand d, NetworkProfile net) {
    double w = d.active().coflow().weight();
    return w == 1 ? finish : net.now() + (finish - net.now()) / w;
  }

  /** The coflow's aggregated demand, rebuilt only when its state changed. */
  private CoflowDemand demand(ActiveCoflow a, ClusterView view) {
    CoflowDemand d = demands.get(a.index());
    if (d == null || d.active().version() != a.version()) {
      Shaped s = shapes.get(a.index());
      if (s == null || s.coflow() != a.coflow() || s.hosts() != view.hosts()) {
        // the live coordinator renumbers hosts
        CoflowShape shape = s != null && s.coflow() == a.coflow() ? s.shape() : new CoflowShape(a);
        s = new Shaped(a.coflow(), shape, view.hosts(), shape.sendersMayHostReducers(view.hosts()));
        shapes.put(a.index(), s);
      }
      d = new CoflowDemand(a, s.shape(), s.locality());
      demands.put(a.index(), d);
    }
    return d;
  }

  private void forgetFinished(List<ActiveCoflow> active) {
    if (shapes.size() > active.size()) {
      BitSet live = new BitSet();
      for (ActiveCoflow a : active) {
        live.set(a.index());
      }
      shapes.keySet().removeIf(i -> !live.get(i));
      demands.keySet().removeIf(i -> !live.get(i));
    }
  }

  /**
   * {@code e}'s coflow with plan {@code p}, made against the current B; keyed by its current wave
   * alone under {@link WaveRule#PER_WAVE}.
   */
  private Entry entry(CoflowPlan p, Entry e, NetworkProfile net, boolean polished) {
    double finish = options.waves() == WaveRule.PER_WAVE ? p.waveFinish() : p.finish();
    return new Entry(key(finish, e.demand(), net), e.index(), net.epoch(), e.demand(), p, polished);
  }

  private CommittedRates newCommit(CoflowPlan plan) {
    return new CommittedRates(spareRates(plan.demand().active().remaining().length));
  }

  /**
   * Serves a polished plan: its rates, committed against B, starting from the coflow's last commit
   * (the rates are then that commit's array, rewritten at the next invocation). Not when
   * work-conserving: the idle-bandwidth fill adds to the rates, so the flows do not move at those
   * committed, and each commit starts afresh (with an array of its own, which the fill writes),
   * kept only for the ends it plans.
   */
  private CoflowAssignment commit(
      CoflowPlan plan, NetworkProfile net, Set<Integer> served, boolean readAfter) {
    int index = plan.demand().active().index();
    served.add(index);
    double[] r;
    if (options.workConserving()) {
      CommittedRates fresh = new CommittedRates();
      r = rates.commit(plan, net, fresh, true);
      plannedFirstEnd = Math.min(plannedFirstEnd, fresh.firstEnd());
    } else {
      r =
          rates.commit(
              plan, net, committed.computeIfAbsent(index, i -> newCommit(plan)), readAfter);
    }
    return new CoflowAssignment(plan.hostOf().clone(), r);
  }
}
