/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;

/**
 * Checks a {@link Schedule} against its {@link Instance}: the constraints of the paper's model
 * (section II-B: per-host incoming and outgoing bandwidth on a non-blocking switch; section IV-D:
 * pinned reducers and reducer slots) and the consistency of the schedule itself (every byte sent,
 * placement and flow destinations agreeing, completion times matching the segments).
 *
 * <p>Each violation is one sentence naming the coflow, flow, reducer or host and the numbers
 * involved. Tolerances: rates may exceed a capacity by a relative 1e-9 plus 1e-6 bytes/s, a flow's
 * bytes may be off by a relative 1e-6 plus 1e-3 bytes, times may be off by a relative 1e-9 (of at
 * least one second), all to absorb floating-point rounding in the schemes.
 *
 * <p>Reducer activity, for slots: from the first segment start of any of the reducer's flows (its
 * coflow's arrival if it has none) until the end of its last segment, half-open, so a reducer that
 * ends at t and one that starts at t may share a slot, and a reducer with no network flow occupies
 * no time at all.
 */
public final class FeasibilityChecker {

  private static final double RATE_REL = 1e-9;
  private static final double RATE_ABS = 1e-6;
  private static final double BYTES_REL = 1e-6;
  private static final double BYTES_ABS = 1e-3;
  private static final double TIME_REL = 1e-9;
  private static final int MAX_REPORTED = 5;

  private final Instance instance;
  private final List<String> violations = new ArrayList<>();
  private final CoflowSchedule[] coflows;
  private final FlowSchedule[][] flows;

  private FeasibilityChecker(Instance instance) {
    this.instance = instance;
    this.coflows = new CoflowSchedule[instance.coflows().size()];
    this.flows = new FlowSchedule[coflows.length][];
    for (int c = 0; c < coflows.length; c++) {
      flows[c] = new FlowSchedule[instance.coflows().get(c).flows().size()];
    }
  }

  /** Every violation of the schedule, in a stable order; empty when it is feasible. */
  public static List<String> violations(Instance instance, Schedule schedule) {
    FeasibilityChecker checker = new FeasibilityChecker(instance);
    checker.index(schedule);
    checker.checkPlacement();
    checker.checkSegments();
    checker.checkBytes();
    checker.checkLinks();
    checker.checkSlots();
    checker.checkFinish();
    return List.copyOf(checker.violations);
  }

  /**
   * Throws {@link IllegalStateException} listing up to five violations when the schedule is
   * infeasible.
   */
  public static void check(Instance instance, Schedule schedule) {
    List<String> found = violations(instance, schedule);
    if (found.isEmpty()) {
      return;
    }
    StringBuilder message =
        new StringBuilder("schedule of scheme ")
            .append(schedule.scheme())
            .append(" is infeasible (")
            .append(found.size())
            .append(found.size() == 1 ? " violation): " : " violations): ");
    message.append(String.join("; ", found.subList(0, Math.min(MAX_REPORTED, found.size()))));
    if (found.size() > MAX_REPORTED) {
      message.append("; and ").append(found.size() - MAX_REPORTED).append(" more");
    }
    throw new IllegalStateException(message.toString());
  }

  /** One entry per coflow and per flow of the instance, with a placement of the right size. */
  private void index(Schedule schedule) {
    for (CoflowSchedule c : schedule.coflows()) {
      if (c.coflow() < 0 || c.coflow() >= coflows.length) {
        violations.add("the schedule names coflow index " + c.coflow() + ", which does not exist");
      } else if (coflows[c.coflow()] != null) {
        violations.add("the schedule lists " + coflow(c.coflow()) + " twice");
      } else if (c.hostOf() == null || c.hostOf().length != reducers(c.coflow()).size()) {
        add(
            "the schedule places %s reducers of %s, which has %s",
            c.hostOf() == null ? 0 : c.hostOf().length,
            coflow(c.coflow()),
            reducers(c.coflow()).size());
      } else {
        coflows[c.coflow()] = c;
      }
    }
    for (FlowSchedule f : schedule.flows()) {
      if (f.coflow() < 0 || f.coflow() >= flows.length || f.flow() < 0) {
        violations.add("the schedule names flow " + f.flow() + " of coflow index " + f.coflow());
      } else if (f.flow() >= flows[f.coflow()].length) {
        add("the schedule names flow %s of %s, which does not exist", f.flow(), coflow(f.coflow()));
      } else if (flows[f.coflow()][f.flow()] != null) {
        violations.add("the schedule lists " + flow(f.coflow(), f.flow()) + " twice");
      } else {
        flows[f.coflow()][f.flow()] = f;
      }
    }
    for (int c = 0; c < coflows.length; c++) {
      if (coflows[c] == null && schedule.coflows().stream().noneMatch(isCoflow(c))) {
        violations.add("the schedule lacks " + coflow(c));
      }
      for (int k = 0; k < flows[c].length; k++) {
        if (flows[c][k] == null) {
          violations.add("the schedule lacks " + flow(c, k));
        }
      }
    }
  }

  /** Pinned reducers stay put; reducers only on hosts that take them; flows go to their reducer. */
  private void checkPlacement() {
    int hostCount = instance.hosts().size();
    for (int c = 0; c < coflows.length; c++) {
      if (coflows[c] == null) {
        continue;
      }
      double arrival = instance.coflows().get(c).arrival();
      if (!sameTime(coflows[c].arrival(), arrival)) {
        add(
            "%s has arrival %s in the schedule but %s in the instance",
            coflow(c), coflows[c].arrival(), arrival);
      }
      int[] hostOf = coflows[c].hostOf();
      for (int j = 0; j < hostOf.length; j++) {
        Reducer r = reducers(c).get(j);
        if (hostOf[j] < 0 || hostOf[j] >= hostCount) {
          violations.add("reducer " + q(r.id()) + " is placed on " + host(hostOf[j]));
          continue;
        }
        Host h = instance.hosts().get(hostOf[j]);
        if (r.isPinned() && hostOf[j] != r.pinnedHost()) {
          add(
              "reducer %s is pinned to %s but placed on %s",
              q(r.id()), host(r.pinnedHost()), host(hostOf[j]));
        }
        if (!h.canHostReducers()) {
          add("reducer %s is placed on host %s, which cannot host reducers", q(r.id()), q(h.id()));
        } else if (h.reducerSlots() == 0) {
          add("reducer %s is placed on host %s, which has reducerSlots 0", q(r.id()), q(h.id()));
        }
      }
      for (int k = 0; k < flows[c].length; k++) {
        FlowSchedule f = flows[c][k];
        int reducer = instance.coflows().get(c).flows().get(k).reducer();
        if (f != null && f.dst() != hostOf[reducer]) {
          add(
              "%s goes to %s but its reducer is placed on %s",
              flow(c, k), host(f.dst()), host(hostOf[reducer]));
        }
      }
    }
  }

  /** Only network flows have segments; each is finite, positive, after arrival, in time order. */
  private void checkSegments() {
    for (int c = 0; c < flows.length; c++) {
      double arrival = instance.coflows().get(c).arrival();
      for (int k = 0; k < flows[c].length; k++) {
        FlowSchedule f = flows[c][k];
        if (f == null || f.segments().isEmpty()) {
          continue;
        }
        if (isLocal(c, k)) {
          violations.add(flow(c, k) + " is local but has " + f.segments().size() + " segment(s)");
        }
        Segment previous = null;
        for (int i = 0; i < f.segments().size(); i++) {
          Segment s = f.segments().get(i);
          String which = "segment " + i + " " + segment(s) + " of " + flow(c, k);
          if (!Double.isFinite(s.start())
              || !Double.isFinite(s.end())
              || !Double.isFinite(s.rate())) {
            violations.add(which + " is not finite");
            continue;
          }
          if (!(s.rate() > 0)) {
            violations.add(which + " has rate " + s.rate() + " <= 0");
          }
          if (s.end() < s.start()) {
            violations.add(which + " ends before it starts");
          }
          if (s.start() < arrival - slack(arrival)) {
            violations.add(which + " starts before the coflow's arrival " + arrival);
          }
          if (previous != null && s.start() < previous.end() - slack(previous.end())) {
            violations.add(
                which + " starts before the previous segment " + segment(previous) + " ends");
          }
          previous = s;
        }
      }
    }
  }

  /** Summed over its segments, rate times duration equals each flow's bytes. */
  private void checkBytes() {
    for (int c = 0; c < flows.length; c++) {
      for (int k = 0; k < flows[c].length; k++) {
        FlowSchedule f = flows[c][k];
        if (f == null || isLocal(c, k)) {
          continue;
        }
        double sent = 0;
        for (Segment s : f.segments()) {
          sent += s.bytes();
        }
        double bytes = instance.coflows().get(c).flows().get(k).bytes();
        if (!(Math.abs(sent - bytes) <= BYTES_REL * bytes + BYTES_ABS)) {
          violations.add(
              flow(c, k) + " sends " + sent + " bytes in its segments, not its " + bytes);
        }
      }
    }
  }

  /**
   * Sweep over segment boundaries: between two consecutive boundaries every rate is constant, so
   * checking the sums right after each boundary checks every instant (section II-B capacities).
   */
  private void checkLinks() {
    // {time, host, direction (0 in, 1 out), rate delta, +1 start or -1 end}
    List<double[]> events = new ArrayList<>();
    for (int c = 0; c < flows.length; c++) {
      for (int k = 0; k < flows[c].length; k++) {
        FlowSchedule f = flows[c][k];
        if (f == null || isLocal(c, k) || !validHost(f.dst())) {
          continue;
        }
        int src = instance.coflows().get(c).flows().get(k).src();
        for (Segment s : f.segments()) {
          if (Double.isFinite(s.start()) && Double.isFinite(s.rate()) && s.end() > s.start()) {
            events.add(new double[] {s.start(), f.dst(), 0, s.rate(), 1});
            events.add(new double[] {s.end(), f.dst(), 0, -s.rate(), -1});
            events.add(new double[] {s.start(), src, 1, s.rate(), 1});
            events.add(new double[] {s.end(), src, 1, -s.rate(), -1});
          }
        }
      }
    }
    events.sort(Comparator.comparingDouble(e -> e[0]));
    int n = instance.hosts().size();
    double[][] load = new double[2][n];
    int[][] active = new int[2][n];
    boolean[][] reported = new boolean[2][n];
    int i = 0;
    while (i < events.size()) {
      double t = events.get(i)[0];
      int first = i;
      for (; i < events.size() && events.get(i)[0] == t; i++) {
        double[] e = events.get(i);
        int h = (int) e[1];
        int d = (int) e[2];
        active[d][h] += (int) e[4];
        // Reset to exactly 0 when the link empties, so rounding cannot accumulate across a run.
        load[d][h] = active[d][h] == 0 ? 0 : load[d][h] + e[3];
      }
      for (int j = first; j < i; j++) {
        int h = (int) events.get(j)[1];
        int d = (int) events.get(j)[2];
        Host host = instance.hosts().get(h);
        double cap = d == 0 ? host.inBytesPerSec() : host.outBytesPerSec();
        if (!reported[d][h] && load[d][h] > cap * (1 + RATE_REL) + RATE_ABS) {
          reported[d][h] = true;
          add(
              "%s rate of host %s is %s bytes/s at t=%s s, above its %s %s",
              d == 0 ? "incoming" : "outgoing",
              q(host.id()),
              load[d][h],
              t,
              d == 0 ? "inBytesPerSec" : "outBytesPerSec",
              cap);
        }
      }
    }
  }

  /** At no instant does a host run more active reducers than its reducerSlots (section IV-D). */
  private void checkSlots() {
    List<double[]> events = new ArrayList<>(); // {time, +1 start / -1 end, coflow, reducer, host}
    for (int c = 0; c < coflows.length; c++) {
      if (coflows[c] == null) {
        continue;
      }
      Coflow coflow = instance.coflows().get(c);
      double[] start = new double[coflow.reducers().size()];
      double[] end = new double[start.length];
      Arrays.fill(start, Double.POSITIVE_INFINITY);
      Arrays.fill(end, Double.NEGATIVE_INFINITY);
      for (int k = 0; k < flows[c].length; k++) {
        FlowSchedule f = flows[c][k];
        int r = coflow.flows().get(k).reducer();
        for (Segment s : f == null ? List.<Segment>of() : f.segments()) {
          start[r] = Math.min(start[r], s.start());
          end[r] = Math.max(end[r], s.end());
        }
      }
      for (int r = 0; r < start.length; r++) {
        int h = coflows[c].hostOf()[r];
        if (validHost(h) && start[r] < end[r]) {
          events.add(new double[] {start[r], 1, c, r, h});
          events.add(new double[] {end[r], -1, c, r, h});
        }
      }
    }
    // Ends before starts at the same instant: activity is half-open.
    events.sort(Comparator.<double[]>comparingDouble(e -> e[0]).thenComparingDouble(e -> e[1]));
    int n = instance.hosts().size();
    List<TreeSet<String>> running = new ArrayList<>();
    for (int h = 0; h < n; h++) {
      running.add(new TreeSet<>());
    }
    boolean[] reported = new boolean[n];
    for (double[] e : events) {
      int h = (int) e[4];
      Host host = instance.hosts().get(h);
      String reducer = reducers((int) e[2]).get((int) e[3]).id();
      if (e[1] < 0) {
        running.get(h).remove(reducer);
        continue;
      }
      running.get(h).add(reducer);
      if (!reported[h] && running.get(h).size() > host.reducerSlots()) {
        reported[h] = true;
        add(
            "host %s has %s active reducers at t=%s s %s, more than its reducerSlots %s",
            q(host.id()), running.get(h).size(), e[0], running.get(h), host.reducerSlots());
      }
    }
  }

  /**
   * finish = last segment end when something crossed the network, or later when a reducer without
   * network flows was placed later (it waited for a slot); never before arrival.
   */
  private void checkFinish() {
    for (int c = 0; c < coflows.length; c++) {
      CoflowSchedule s = coflows[c];
      if (s == null) {
        continue;
      }
      double lastEnd = Double.NEGATIVE_INFINITY;
      for (FlowSchedule f : flows[c]) {
        for (Segment g : f == null ? List.<Segment>of() : f.segments()) {
          lastEnd = Math.max(lastEnd, g.end());
        }
      }
      double arrival = instance.coflows().get(c).arrival();
      if (!Double.isFinite(s.finish())) {
        violations.add(coflow(c) + " has finish " + s.finish());
      } else if (s.finish() < arrival - slack(arrival)) {
        violations.add(
            coflow(c) + " finishes at " + s.finish() + " s, before its arrival " + arrival);
      }
      // Later than the last segment only when a reducer with purely local input waited for a slot.
      if (lastEnd > Double.NEGATIVE_INFINITY && s.finish() < lastEnd - slack(lastEnd)) {
        add(
            "%s has finish %s s but its last segment ends later, at %s s",
            coflow(c), s.finish(), lastEnd);
      }
      if (lastEnd > Double.NEGATIVE_INFINITY
          && s.finish() > lastEnd + slack(lastEnd)
          && !hasReducerWithoutSegments(c)) {
        add(
            "%s has finish %s s but its last segment ends at %s s, and every reducer of it has"
                + " segments, so none can have waited for a slot",
            coflow(c), s.finish(), lastEnd);
      }
    }
  }

  // ---- helpers ----

  /** Records one violation; {@code %s} renders doubles as {@link Double#toString} does. */
  private void add(String format, Object... args) {
    violations.add(String.format(Locale.ROOT, format, args));
  }

  /** True when some reducer of coflow c has no segment at all (only local or empty flows). */
  private boolean hasReducerWithoutSegments(int c) {
    boolean[] hasSegments = new boolean[reducers(c).size()];
    for (int k = 0; k < flows[c].length; k++) {
      if (flows[c][k] != null && !flows[c][k].segments().isEmpty()) {
        hasSegments[instance.coflows().get(c).flows().get(k).reducer()] = true;
      }
    }
    for (boolean b : hasSegments) {
      if (!b) {
        return true;
      }
    }
    return false;
  }

  private boolean isLocal(int c, int k) {
    FlowSchedule f = flows[c][k];
    return f != null && f.dst() == instance.coflows().get(c).flows().get(k).src();
  }

  private boolean validHost(int h) {
    return h >= 0 && h < instance.hosts().size();
  }

  private List<Reducer> reducers(int c) {
    return instance.coflows().get(c).reducers();
  }

  private static Predicate<CoflowSchedule> isCoflow(int c) {
    return s -> s.coflow() == c;
  }

  private static boolean sameTime(double a, double b) {
    return Math.abs(a - b) <= slack(Math.max(Math.abs(a), Math.abs(b)));
  }

  private static double slack(double t) {
    return TIME_REL * Math.max(1, Math.abs(t));
  }

  private String coflow(int c) {
    return "coflow " + q(instance.coflows().get(c).id());
  }

  private String flow(int c, int k) {
    Coflow coflow = instance.coflows().get(c);
    Flow f = coflow.flows().get(k);
    return "flow "
        + k
        + " of coflow "
        + q(coflow.id())
        + " (from "
        + q(instance.hosts().get(f.src()).id())
        + " to reducer "
        + q(coflow.reducers().get(f.reducer()).id())
        + ")";
  }

  /** The host's quoted id, or a note that the index names no host. */
  private String host(int h) {
    return validHost(h)
        ? "host " + q(instance.hosts().get(h).id())
        : "host index " + h + " (no such host)";
  }

  private static String segment(Segment s) {
    return "[" + s.start() + ", " + s.end() + ", " + s.rate() + "]";
  }

  private static String q(String id) {
    return "\"" + id + "\"";
  }
}
