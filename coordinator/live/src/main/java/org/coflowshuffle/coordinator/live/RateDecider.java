/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SizeKnowledge;
import org.coflowshuffle.core.scheme.SizeLearning;

/**
 * The rates of every flow of the stages fetching: one decision of the scheme over all of them, made
 * again when something it depends on changed (an arrival, a flow or reduce task ending, a link's
 * share) or its own wake-up time came, and read in between. Progress that ends no flow brings the
 * scheme's view up to date at most every {@link #PROGRESS_REFRESH_SECONDS}. Not thread-safe: {@link
 * LiveCoordinator} guards it.
 */
final class RateDecider {

  /**
   * Progress reports that complete no flow bring the scheme's view of what is left up to date at
   * most this often, seconds: the paper decides again on arrivals and completions, and deciding on
   * every report would cost a decision per fetched block.
   */
  static final double PROGRESS_REFRESH_SECONDS = 1.0;

  /**
   * The scheme instance that decides rates, kept for as long as the coordinator: schemes that learn
   * as coflows progress (Philae's pilot samples, FCA's guarantees to flows that started earlier)
   * are what they are only if one instance sees every decision; so does the sampling of stages
   * whose sizes are not known.
   */
  private final SizeLearning scheme;

  private final DoubleSupplier clock;
  private final ExecutorRegistry executors;
  private final FetchingStages fetching;

  /** Told how long each reduce task ran after its fetches ended. */
  private final DoubleConsumer taskTails;

  /** When rates were last decided, on the clock. */
  private double decidedAt = Double.NEGATIVE_INFINITY;

  /** Rates must be decided again before they are read: something changed, or a wake-up is due. */
  private boolean stale = true;

  private double wakeUp = Double.POSITIVE_INFINITY;

  private final LinkUsePeak linkUse = new LinkUsePeak();

  RateDecider(
      SizeLearning scheme,
      DoubleSupplier clock,
      ExecutorRegistry executors,
      FetchingStages fetching,
      DoubleConsumer taskTails) {
    this.scheme = scheme;
    this.clock = clock;
    this.executors = executors;
    this.fetching = fetching;
    this.taskTails = taskTails;
  }

  /** Something changed that the current rates do not answer. */
  void markStale() {
    stale = true;
  }

  /** See {@link LiveCoordinator#decisionDue}. */
  boolean due() {
    return stale;
  }

  /** See {@link LiveCoordinator#wakeUpAt}. */
  double wakeUpAt() {
    return wakeUp;
  }

  /** See {@link LiveCoordinator#reducerDone}. */
  void reducerDone(int shuffleId, int reducer) {
    FetchingCoflow c = fetching.reading(shuffleId);
    if (c != null) {
      int task = c.taskOf(reducer);
      double tail = c.sinceFetched(task, clock.getAsDouble());
      c.taskEnded(task);
      if (c.running(task, false)) {
        stale = true;
        if (tail >= 0) {
          taskTails.accept(tail);
        }
      }
    }
  }

  /** See {@link LiveCoordinator#delivered}. */
  void delivered(int shuffleId, int reducer, String source, long bytes) {
    FetchingCoflow c = fetching.reading(shuffleId);
    if (c != null && bytes > 0) {
      String to = c.machineOfTask(c.taskOf(reducer));
      String from = executors.machineOf(source);
      if (to != null && !to.equals(from)) {
        stale |= executors.delivered(from, to, bytes, clock.getAsDouble());
      }
      if (c.delivered(shuffleId, reducer, source, bytes)) {
        c.fetchedBy(reducer, clock.getAsDouble());
        stale = true; // a flow completed: Algorithm 1 runs again now
      } else {
        // Progress alone: the order by remaining time is brought up to date soon, not per report.
        wakeUp = Math.min(wakeUp, decidedAt + PROGRESS_REFRESH_SECONDS);
      }
    }
  }

  /** See {@link LiveCoordinator#fetched}. */
  void fetched(int shuffleId, int reducer, String source) {
    FetchingCoflow c = fetching.reading(shuffleId);
    if (c != null && c.fetched(shuffleId, reducer, source)) {
      c.fetchedBy(reducer, clock.getAsDouble());
      stale = true; // a flow completed
    }
  }

  /** See {@link LiveCoordinator#fetching}. */
  void fetching(int shuffleId, int reducer, String fetcher) {
    FetchingCoflow c = fetching.reading(shuffleId);
    if (c != null) {
      int task = c.taskOf(reducer);
      stale |= c.running(task, true);
      stale |= c.runsOn(task, fetcher, fetcher == null ? null : executors.machineOf(fetcher));
    }
  }

  /** See {@link LiveCoordinator#rate}. */
  double rate(int shuffleId, int reducer, String source, String fetcher) {
    FetchingCoflow c = fetching.reading(shuffleId);
    if (c == null) {
      return Double.POSITIVE_INFINITY;
    }
    fetching(shuffleId, reducer, fetcher);
    double now = clock.getAsDouble();
    if (stale || now >= wakeUp) {
      decide(now);
    }
    double r = c.rateOf(shuffleId, reducer, source);
    return Double.isNaN(r) ? Double.POSITIVE_INFINITY : r;
  }

  /** See {@link LiveCoordinator#linkUse}. */
  LinkUsePeak linkUse() {
    return linkUse;
  }

  /** See {@link LiveCoordinator#refreshRates}. */
  boolean refresh() {
    double now = clock.getAsDouble();
    if (!stale && now < wakeUp) {
      return false;
    }
    decide(now);
    return true;
  }

  /** One decision of the scheme over every stage still fetching; its rates until the next. */
  private void decide(double now) {
    decidedAt = now;
    HostIndex hosts = executors.hostIndex(0);
    List<ActiveCoflow> active = new ArrayList<>();
    List<FetchingCoflow> of = new ArrayList<>();
    for (FetchingCoflow c : fetching.all()) {
      ActiveCoflow a = c.anyRunning() ? c.pinned(hosts, now, true) : null;
      if (a != null) {
        active.add(a);
        of.add(c);
      } else {
        c.rates(null);
      }
    }
    stale = false;
    wakeUp = Double.POSITIVE_INFINITY;
    if (active.isEmpty()) {
      return;
    }
    Map<Integer, SizeKnowledge> partial = new HashMap<>();
    for (FetchingCoflow c : fetching.all()) {
      SizeKnowledge k = c.knowledge();
      if (k != null) {
        partial.put(c.index, k);
      }
    }
    List<Host> list = hosts.hosts();
    Decision d = scheme.decide(new ClusterView(now, list, active, new int[list.size()]), partial);
    double[][] load = LinkUsePeak.load(list.size(), active, d);
    linkUse.add(list, load);
    executors.planned(now, list, load, () -> LinkUsePeak.between(list, active, d));
    for (int i = 0; i < of.size(); i++) {
      of.get(i).rates(d.assignments().get(i).rates());
    }
    for (FetchingCoflow c : fetching.all()) {
      c.assume(scheme.estimate(c.index)); // a no-op for stages whose sizes are all known
    }
    // Completions are reported here (a flow's last byte makes the rates stale), so the scheme's
    // wake-ups at the ends it planned stand only for reports that lag: no sooner than a refresh.
    wakeUp = Math.max(d.wakeUpAt(), now + PROGRESS_REFRESH_SECONDS);
  }
}
