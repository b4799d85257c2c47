package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * A placed stage whose reducers still fetch: its flows named by executor ids (host indices change
 * between decisions), the bytes each has left as reducers report progress, and the rates the last
 * decision gave them.
 */
final class FetchingCoflow {

  final Coflow coflow;
  final double arrival;
  final List<String> reducerExecutors;
  private final List<String> flowSources;
  private final double[] remaining;

  /**
   * The flows a reducer fetches of one shuffle from one executor: what a progress report or a rate
   * question names. Indexed once, since both arrive for every fetch while the stage runs.
   */
  private record FlowKey(int shuffleId, int reducer, String source) {}

  private final Map<FlowKey, int[]> flowsByKey = new HashMap<>();

  /** Per reducer: fetching now (it asked for a rate) and not yet done. */
  private final boolean[] running;

  private double[] rates;

  FetchingCoflow(
      Coflow coflow,
      double arrival,
      List<String> reducerExecutors,
      List<String> flowSources,
      int[] flowShuffle) {
    this.coflow = coflow;
    this.arrival = arrival;
    this.reducerExecutors = List.copyOf(reducerExecutors);
    this.flowSources = List.copyOf(flowSources);
    this.remaining = coflow.flows().stream().mapToDouble(Flow::bytes).toArray();
    Map<FlowKey, List<Integer>> byKey = new HashMap<>();
    for (int k = 0; k < remaining.length; k++) {
      FlowKey key =
          new FlowKey(flowShuffle[k], coflow.flows().get(k).reducer(), flowSources.get(k));
      byKey.computeIfAbsent(key, x -> new ArrayList<>()).add(k);
    }
    byKey.forEach(
        (key, ks) -> flowsByKey.put(key, ks.stream().mapToInt(Integer::intValue).toArray()));
    this.running = new boolean[coflow.reducers().size()];
  }

  /**
   * Marks a reducer as fetching (true) or done (false). Only running reducers compete: one that
   * waits for a task slot moves no bytes, and counting it would hold back, behind a shorter stage
   * that cannot run yet, the reducers that occupy those slots.
   *
   * @return whether this changed anything
   */
  boolean running(int reducer, boolean fetching) {
    if (reducer < 0 || reducer >= running.length || running[reducer] == fetching) {
      return false;
    }
    running[reducer] = fetching;
    return true;
  }

  /**
   * As the scheme sees it: every reducer pinned; null when one of its executors is gone.
   *
   * @param runningOnly count only the bytes of reducers fetching now (for rates), not all (for
   *     placing a new stage against the work ahead of it)
   */
  ActiveCoflow pinned(int index, HostIndex hosts, double now, boolean runningOnly) {
    int n = reducerExecutors.size();
    int[] hostOf = new int[n];
    for (int r = 0; r < n; r++) {
      hostOf[r] = hosts.indexOf(reducerExecutors.get(r));
      if (hostOf[r] < 0) {
        return null;
      }
    }
    List<Flow> flows = new ArrayList<>(remaining.length);
    int[] src = new int[remaining.length];
    int[] reducer = new int[remaining.length];
    for (int k = 0; k < remaining.length; k++) {
      Flow f = coflow.flows().get(k);
      src[k] = hosts.indexOrSender(flowSources.get(k));
      reducer[k] = f.reducer();
      flows.add(new Flow(src[k], f.reducer(), f.bytes()));
    }
    boolean[] pinned = new boolean[n];
    Arrays.fill(pinned, true);
    Coflow c = new Coflow(coflow.id(), arrival, coflow.reducers(), flows);
    double[] left = remaining.clone();
    if (runningOnly) {
      for (int k = 0; k < left.length; k++) {
        if (!running[reducer[k]]) {
          left[k] = 0;
        }
      }
    }
    return new ActiveCoflow(index, c, left, hostOf, pinned, now - arrival, 0, src, reducer);
  }

  /** A reducer received {@code bytes} of a shuffle from one executor: they leave its flows. */
  void delivered(int shuffleId, int reducer, String source, long bytes) {
    double left = bytes;
    for (int k : flowsByKey.getOrDefault(new FlowKey(shuffleId, reducer, source), new int[0])) {
      double take = Math.min(left, remaining[k]);
      remaining[k] -= take;
      left -= take;
    }
  }

  /** True when some reducer is fetching now. */
  boolean anyRunning() {
    for (boolean r : running) {
      if (r) {
        return true;
      }
    }
    return false;
  }

  void rates(double[] perFlow) {
    rates = perFlow == null ? null : perFlow.clone();
  }

  /**
   * The rate of everything one reducer fetches of a shuffle from one executor: the sum of its
   * flows' rates; NaN when no flow matches or no decision covered this coflow.
   */
  double rateOf(int shuffleId, int reducer, String source) {
    int[] ks = flowsByKey.get(new FlowKey(shuffleId, reducer, source));
    if (rates == null || ks == null) {
      return Double.NaN;
    }
    double sum = 0;
    for (int k : ks) {
      sum += rates[k];
    }
    return sum;
  }
}
