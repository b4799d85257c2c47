/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.SizeKnowledge;

/**
 * A placed stage whose reducers still fetch: its flows named by executor ids (host indices change
 * between decisions), the bytes each has left as reducers report progress, and the rates the last
 * decision gave them.
 *
 * <p>The reducers of the model are the stage's tasks: where the stage reads several reducers per
 * task (coalesced partitions), a task's flows are those of all its reducers, each still named by
 * its own reducer in progress reports and rate questions.
 *
 * <p>Flows of map outputs reported without sizes are of unknown size: what they have left is an
 * assumption ({@link SizeKnowledge#left}) on a size per flow that the scheme's estimate replaces
 * once it has one, and they end only when their reducer says so.
 *
 * <p>It is one class, longer than most, because its per-task and per-flow arrays change together on
 * every report (progress, a task's end, a rate decision), and keeping them in one place is what
 * keeps them consistent.
 */
final class FetchingCoflow {

  /**
   * The coflow's number for the schemes, fixed while it fetches: the scheme deciding rates keeps
   * state across decisions (Philae's samples, FCA's guarantees) keyed on it.
   */
  final int index;

  final Coflow coflow;
  final double arrival;

  /** How the stage's tasks divide the reducers of the shuffles it reads. */
  private final ReduceTaskRanges tasks;

  /** Per task, the executor it runs on: where it was placed until it asks from elsewhere. */
  private final String[] reducerExecutors;

  /** Per task, the machine of its executor. */
  private final String[] reducerMachines;

  private final double[] remaining;

  /** The executors flows come from, each once, and per flow which of them it comes from. */
  private final String[] sources;

  /** Per source, its machine (its own id when it was not registered at placement). */
  private final String[] sourceMachines;

  private final int[] sourceOfFlow;
  private final int[] flowReducer;

  /** The coflow as the last decision modelled it, with the host index of each source then. */
  private Coflow model;

  private int[] modelSrc;
  private int[] modelSourceHosts;

  /**
   * The flows a reducer fetches of one shuffle from one executor, what a progress report or a rate
   * question names, indexed once since both arrive for every fetch while the stage runs: per
   * shuffle read ({@link #shuffleIds}, ascending) and source, per reducer the first such flow, and
   * per flow the next (-1 after the last). Memory grows with sources × reducers, as the flows do.
   */
  private final int[] shuffleIds;

  private final Map<String, Integer> sourceIndex = new HashMap<>();
  private final int[][] firstFlow;
  private final int[] nextFlow;

  /**
   * Per flow: it stays on one machine (source and reducer executors there), so it is read from disk
   * (Spark reads a block of another executor on its host from disk) and needs no network. Kept up
   * to date by {@link #runsOn}, as every decision asks it of every flow.
   */
  private final boolean[] local;

  /** Per task: fetching now (it asked for a rate) and not yet done. */
  private final boolean[] running;

  /** Per task: it ended (a retry that asks for a rate again starts it anew). */
  private final boolean[] done;

  /** Per task: when its last byte over the network arrived, on the coordinator's clock; or NaN. */
  private final double[] fetchedAt;

  /** Per task: its flows over the network with bytes left. */
  private final int[] networkFlowsLeft;

  /** Per flow, true where its size is not known; null when every size is. */
  private final boolean[] unknown;

  /** Per flow of unknown size, the bytes it received and whether it ended; null as above. */
  private final double[] received;

  private final boolean[] ended;

  /** Bytes assumed per flow of unknown size: a guess until the scheme has an estimate. */
  private double perFlow;

  private double[] rates;
  private double waited; // seconds with no flow given a rate, up to waitedUntil
  private double waitedUntil;
  private long ratesVersion;

  /** Bytes reducers reported fetched over the network, all flows together. */
  private double sent;

  /** The same per source ({@link #sources}), and what of it {@link #addLinksOut} last saw. */
  private final double[] sentFrom;

  private final double[] sentFromSeen;

  /** Per task, the bytes its flows over the network delivered to it. */
  private final double[] receivedBy;

  /** Counts the changes of what the schemes see of this coflow (see {@link ActiveCoflow}). */
  private long version;

  FetchingCoflow(
      int index,
      Coflow coflow,
      double arrival,
      List<String> reducerExecutors,
      List<String> sources,
      Function<String, String> machineOf,
      int[] sourceOfFlow,
      int[] flowShuffle,
      int[] flowReduceId,
      ReduceTaskRanges tasks,
      boolean[] unknownFlow,
      double assumedPerFlow) {
    this.index = index;
    this.tasks = tasks;
    this.coflow = coflow;
    this.arrival = arrival;
    this.waitedUntil = arrival;
    this.reducerExecutors = reducerExecutors.toArray(new String[0]);
    this.reducerMachines = reducerExecutors.stream().map(machineOf).toArray(String[]::new);
    this.remaining = coflow.flows().stream().mapToDouble(Flow::bytes).toArray();
    this.unknown = unknownFlow == null ? null : unknownFlow.clone();
    this.received = unknownFlow == null ? null : new double[remaining.length];
    this.ended = unknownFlow == null ? null : new boolean[remaining.length];
    this.perFlow = assumedPerFlow;
    this.sourceOfFlow = sourceOfFlow.clone();
    this.flowReducer = new int[remaining.length];
    for (int k = 0; k < remaining.length; k++) {
      flowReducer[k] = coflow.flows().get(k).reducer();
    }
    this.sources = sources.toArray(new String[0]);
    this.sourceMachines = sources.stream().map(machineOf).toArray(String[]::new);
    for (int i = 0; i < this.sources.length; i++) {
      sourceIndex.put(this.sources[i], i);
    }
    this.sentFrom = new double[this.sources.length];
    this.sentFromSeen = new double[this.sources.length];
    this.shuffleIds = Arrays.stream(flowShuffle).distinct().sorted().toArray();
    this.firstFlow = new int[shuffleIds.length * this.sources.length][];
    this.nextFlow = new int[remaining.length];
    for (int k = remaining.length - 1; k >= 0; k--) { // so that each chain runs in flow order
      int block = Arrays.binarySearch(shuffleIds, flowShuffle[k]) * this.sources.length;
      int[] first = firstFlow[block + sourceOfFlow[k]];
      if (first == null) {
        first = new int[tasks.reducers()];
        Arrays.fill(first, -1);
        firstFlow[block + sourceOfFlow[k]] = first;
      }
      nextFlow[k] = first[flowReduceId[k]];
      first[flowReduceId[k]] = k;
    }
    this.running = new boolean[coflow.reducers().size()];
    this.receivedBy = new double[running.length];
    this.done = new boolean[running.length];
    this.fetchedAt = new double[running.length];
    Arrays.fill(fetchedAt, Double.NaN);
    this.local = new boolean[remaining.length];
    this.networkFlowsLeft = new int[running.length];
    for (int k = 0; k < remaining.length; k++) {
      local[k] = sourceMachines[sourceOfFlow[k]].equals(reducerMachines[flowReducer[k]]);
      networkFlowsLeft[flowReducer[k]] += !local[k] && remaining[k] > 0 ? 1 : 0;
    }
  }

  /** The machine a task runs on (where it was placed until it fetched), or null for no task. */
  String machineOfTask(int task) {
    return task < 0 || task >= reducerMachines.length ? null : reducerMachines[task];
  }

  /** The task that reads reducer {@code reducer}, or -1 when the stage has no such reducer. */
  int taskOf(int reducer) {
    return tasks.taskOf(reducer);
  }

  /**
   * Marks a task as fetching (true) or done (false). Only running reducers compete: one that waits
   * for a task slot moves no bytes, and counting it would hold back, behind a shorter stage that
   * cannot run yet, the reducers that occupy those slots.
   *
   * @return whether this changed anything
   */
  boolean running(int task, boolean fetching) {
    if (task < 0 || task >= running.length) {
      return false;
    }
    if (fetching && done[task]) {
      restart(task);
    }
    done[task] = !fetching;
    if (running[task] == fetching) {
      return false;
    }
    running[task] = fetching;
    version++;
    return true;
  }

  /**
   * A task fetches from {@code executor} on {@code machine}: where it really runs, which is not
   * where it was placed when Spark gave up waiting for that executor. What it reads from the
   * machine it was placed on then crosses the network, and what it reads from its own does not.
   * What another executor received for it (fetched ahead on the executor it was placed on) is not
   * this one's: its flows start over.
   *
   * @return whether this changed anything
   */
  boolean runsOn(int task, String executor, String machine) {
    if (executor == null
        || task < 0
        || task >= reducerExecutors.length
        || executor.equals(reducerExecutors[task])) {
      return false;
    }
    restart(task);
    reducerExecutors[task] = executor;
    reducerMachines[task] = machine;
    networkFlowsLeft[task] = 0;
    for (int k = 0; k < local.length; k++) {
      if (flowReducer[k] == task) {
        local[k] = sourceMachines[sourceOfFlow[k]].equals(machine);
        networkFlowsLeft[task] += !local[k] && remaining[k] > 0 ? 1 : 0;
      }
    }
    version++;
    return true;
  }

  /**
   * As the scheme sees it: every reducer pinned; null when the executor of a reducer that counts is
   * gone. For rates only running reducers count (one not yet started moves nothing, and Spark runs
   * it elsewhere when its executor left); for placing, all do.
   *
   * @param runningOnly count only the bytes of reducers fetching now (for rates), not all (for
   *     placing a new stage against the work ahead of it)
   */
  ActiveCoflow pinned(HostIndex hosts, double now, boolean runningOnly) {
    int n = reducerExecutors.length;
    int[] hostOf = new int[n];
    for (int r = 0; r < n; r++) {
      hostOf[r] = hosts.indexOf(reducerExecutors[r]);
      if (hostOf[r] < 0) {
        if (!runningOnly || running[r] || hosts.size() == 0) {
          return null;
        }
        hostOf[r] = 0; // its flows carry nothing in this view
      }
    }
    int[] sourceHosts = new int[sources.length];
    for (int i = 0; i < sources.length; i++) {
      sourceHosts[i] = hosts.indexOrSender(sources[i]);
    }
    if (!Arrays.equals(sourceHosts, modelSourceHosts)) {
      // Host indices moved (executors came or went): the flows get the new ones. Otherwise the
      // coflow of the last decision still holds, which spares rebuilding every flow per decision.
      List<Flow> flows = new ArrayList<>(remaining.length);
      int[] src = new int[remaining.length];
      for (int k = 0; k < remaining.length; k++) {
        Flow f = coflow.flows().get(k);
        src[k] = sourceHosts[sourceOfFlow[k]];
        flows.add(new Flow(src[k], f.reducer(), size(k)));
      }
      model = new Coflow(coflow.id(), arrival, coflow.reducers(), flows, coflow.weight());
      modelSrc = src;
      modelSourceHosts = sourceHosts;
      version++;
    }
    boolean[] pinned = new boolean[n];
    Arrays.fill(pinned, true);
    double[] left = remaining.clone();
    for (int k = 0; k < left.length; k++) {
      if (local[k] || (runningOnly && !running[flowReducer[k]])) {
        left[k] = 0;
      }
    }
    // The model and its index arrays are shared, not copied: schemes only read them. The two views
    // leave different bytes, so they count as different versions.
    return new ActiveCoflow(
        index,
        model,
        left,
        sent,
        hostOf,
        pinned,
        waited(now),
        2 * version + (runningOnly ? 1 : 0),
        modelSrc,
        flowReducer,
        null); // small shuffles: the scheme sums what it needs
  }

  /**
   * A reducer received {@code bytes} of a shuffle from one executor: they leave its flows, those of
   * known size first; what is left over is shared among those of unknown size.
   *
   * @return whether a flow completed (its last bytes arrived)
   */
  boolean delivered(int shuffleId, int reducer, String source, long bytes) {
    double left = bytes;
    boolean completed = false;
    int open = 0; // flows of unknown size that have not ended
    int first = firstFlow(shuffleId, reducer, source);
    for (int k = first; k >= 0; k = nextFlow[k]) {
      if (isUnknown(k)) {
        open += ended[k] ? 0 : 1;
        continue;
      }
      double take = Math.min(left, remaining[k]);
      boolean ends = take > 0 && remaining[k] - take <= 0;
      completed |= ends;
      networkFlowsLeft[flowReducer[k]] -= ends && !local[k] ? 1 : 0;
      remaining[k] -= take;
      sent += local[k] ? 0 : take;
      sentFrom[sourceOfFlow[k]] += local[k] ? 0 : take;
      receivedBy[flowReducer[k]] += local[k] ? 0 : take;
      left -= take;
      version += take > 0 ? 1 : 0;
    }
    if (left > 0 && open > 0) {
      double share = left / open;
      for (int k = first; k >= 0; k = nextFlow[k]) {
        if (isUnknown(k) && !ended[k]) {
          received[k] += share;
          remaining[k] = SizeKnowledge.left(perFlow, received[k]);
          sent += local[k] ? 0 : share;
          sentFrom[sourceOfFlow[k]] += local[k] ? 0 : share;
          receivedBy[flowReducer[k]] += local[k] ? 0 : share;
          version++;
        }
      }
    }
    return completed;
  }

  /**
   * Every flow a reducer fetches of a shuffle from one executor is over, whatever it was thought to
   * have left.
   *
   * @return whether this changed anything
   */
  boolean fetched(int shuffleId, int reducer, String source) {
    boolean changed = false;
    for (int k = firstFlow(shuffleId, reducer, source); k >= 0; k = nextFlow[k]) {
      changed |= end(k);
    }
    return changed;
  }

  /** The task ended: its flows of unknown size are over (those of known size ended by bytes). */
  void taskEnded(int task) {
    if (unknown != null) {
      for (int k = 0; k < remaining.length; k++) {
        if (unknown[k] && flowReducer[k] == task) {
          end(k);
        }
      }
    }
  }

  private boolean end(int k) {
    if (isUnknown(k)) {
      if (ended[k]) {
        return false;
      }
      ended[k] = true;
      modelSourceHosts = null; // the model's size of the flow is now what it received
    } else if (remaining[k] <= 0) {
      return false;
    } else {
      sent += local[k] ? 0 : remaining[k]; // delivered, if not all reported
    }
    networkFlowsLeft[flowReducer[k]] -= !local[k] && remaining[k] > 0 ? 1 : 0;
    remaining[k] = 0;
    version++;
    return true;
  }

  /**
   * The task fetches every flow anew, whatever was received of it before: a retry of a task that
   * ended, or a task fetching on another executor than the one that fetched for it so far.
   */
  private void restart(int task) {
    for (int k = 0; k < remaining.length; k++) {
      if (flowReducer[k] != task) {
        continue;
      }
      if (!isUnknown(k)) {
        double size = coflow.flows().get(k).bytes();
        if (remaining[k] < size) {
          networkFlowsLeft[task] += !local[k] && remaining[k] <= 0 ? 1 : 0;
          remaining[k] = size;
          version++;
        }
      } else if (ended[k] || received[k] > 0) {
        networkFlowsLeft[task] += !local[k] && remaining[k] <= 0 ? 1 : 0;
        ended[k] = false;
        received[k] = 0;
        remaining[k] = SizeKnowledge.left(perFlow, 0);
        modelSourceHosts = null;
        version++;
      }
    }
  }

  private boolean isUnknown(int k) {
    return unknown != null && unknown[k];
  }

  /** The flow's size: reported, or for one of unknown size what it received and is assumed to. */
  private double size(int k) {
    return isUnknown(k) ? received[k] + remaining[k] : coflow.flows().get(k).bytes();
  }

  /**
   * What the scheme knows of this coflow's sizes, or null when it knows them all. The arrays are
   * this coflow's own, valid until its next event.
   */
  SizeKnowledge knowledge() {
    return unknown == null ? null : new SizeKnowledge(unknown, received, ended);
  }

  /**
   * Takes the scheme's estimate of the bytes per flow of unknown size (NaN for none yet): what such
   * a flow has left, for decisions and placing other stages, follows from it from now on.
   */
  void assume(double estimate) {
    if (unknown == null || !(estimate >= 0) || estimate == perFlow) {
      return;
    }
    perFlow = estimate;
    for (int k = 0; k < remaining.length; k++) {
      if (unknown[k] && !ended[k]) {
        remaining[k] = SizeKnowledge.left(perFlow, received[k]);
      }
    }
    modelSourceHosts = null; // the model's sizes follow too
    version++;
  }

  /**
   * Notes {@code now} as the time the task reading {@code reducer} had all its input, if it has it
   * now and had not before.
   */
  void fetchedBy(int reducer, double now) {
    int t = taskOf(reducer);
    if (t >= 0 && t < fetchedAt.length && Double.isNaN(fetchedAt[t]) && networkFlowsLeft[t] == 0) {
      fetchedAt[t] = now;
    }
  }

  /** Seconds the task has run since it had all its input (it sorts and writes); NaN if unknown. */
  double sinceFetched(int task, double now) {
    return task < 0 || task >= fetchedAt.length ? Double.NaN : now - fetchedAt[task];
  }

  /**
   * Seconds since the last of the coflow's bytes over the network arrived: the coflow's end as the
   * RPC paper counts it, before its reducers sort and write. NaN while a task still has bytes to
   * fetch over the network, or when none had any.
   */
  double sinceAllFetched(double now) {
    double last = Double.NEGATIVE_INFINITY;
    for (int t = 0; t < fetchedAt.length; t++) {
      if (networkFlowsLeft[t] > 0) {
        return Double.NaN;
      }
      if (fetchedAt[t] > last) { // false for NaN: a task with nothing over the network
        last = fetchedAt[t];
      }
    }
    return last == Double.NEGATIVE_INFINITY ? Double.NaN : now - last;
  }

  /**
   * Adds, per executor, one entry for each of this stage's tasks that holds a task slot there or
   * will (placed there and not done): in how many seconds it ends its fetch. A stage placed later
   * finds those cores taken until the tasks end, and the tasks end in about that order, since after
   * its fetch every task only sorts and writes.
   *
   * <p>The time is 0 for a task with nothing left to fetch; its bytes left over the rates of the
   * last decision for one fetching (the slowest flow counts); infinite for one that has not started
   * or has a flow the last decision gave no rate.
   */
  void fetchEnds(Map<String, List<Double>> perExecutor) {
    double[] end = new double[done.length];
    for (int k = 0; k < remaining.length; k++) {
      int t = flowReducer[k];
      if (!local[k] && remaining[k] > 0) {
        double rate = rates == null ? 0 : rates[k];
        end[t] = Math.max(end[t], rate > 0 ? remaining[k] / rate : Double.POSITIVE_INFINITY);
      }
    }
    for (int t = 0; t < done.length; t++) {
      if (!done[t]) {
        perExecutor
            .computeIfAbsent(reducerExecutors[t], x -> new ArrayList<>())
            .add(running[t] ? end[t] : Double.POSITIVE_INFINITY);
      }
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

  /**
   * Seconds this stage has waited since it was placed with none of its flows given a rate by a
   * decision: the wait the starvation threshold counts. A stage whose flows move, however slowly,
   * is served, not starving.
   */
  private double waited(double now) {
    if (now > waitedUntil) {
      if (!anyRate()) {
        waited += now - waitedUntil;
      }
      waitedUntil = now;
    }
    return waited;
  }

  private boolean anyRate() {
    if (rates != null) {
      for (double r : rates) {
        if (r > 0) {
          return true;
        }
      }
    }
    return false;
  }

  void rates(double[] perFlow) {
    if (!Arrays.equals(rates, perFlow)) {
      rates = perFlow == null ? null : perFlow.clone();
      ratesVersion++;
    }
  }

  /** The flow indices of what a reducer reads of a shuffle from one executor, or null. */
  int[] flowsOf(int shuffleId, int reducer, String source) {
    int first = firstFlow(shuffleId, reducer, source);
    if (first < 0) {
      return null;
    }
    int n = 0;
    for (int k = first; k >= 0; k = nextFlow[k]) {
      n++;
    }
    int[] ks = new int[n];
    for (int k = first, i = 0; k >= 0; k = nextFlow[k]) {
      ks[i++] = k;
    }
    return ks;
  }

  /** The first flow a reducer reads of a shuffle from one executor ({@link #nextFlow}), or -1. */
  private int firstFlow(int shuffleId, int reducer, String source) {
    int shuffle = Arrays.binarySearch(shuffleIds, shuffleId);
    Integer src = sourceIndex.get(source);
    if (shuffle < 0 || src == null) {
      return -1;
    }
    int[] first = firstFlow[shuffle * sources.length + src];
    return first == null || reducer < 0 || reducer >= first.length ? -1 : first[reducer];
  }

  /** The rates of the last decision, per flow, or null. */
  double[] ratesCopy() {
    return rates == null ? null : rates.clone();
  }

  /**
   * Adds to {@code out}, per source executor, the rate its flows of this stage that cross the
   * network have now and the bytes they were reported to deliver since the last call.
   */
  void addLinksOut(Map<String, double[]> out) {
    for (int s = 0; s < sources.length; s++) {
      out.computeIfAbsent(sources[s], x -> new double[2])[1] += sentFrom[s] - sentFromSeen[s];
      sentFromSeen[s] = sentFrom[s];
    }
    if (rates != null) {
      for (int k = 0; k < rates.length; k++) {
        if (!local[k]) {
          out.get(sources[sourceOfFlow[k]])[0] += rates[k];
        }
      }
    }
  }

  /**
   * Adds, per machine, what this stage plans through its links and what they delivered: the rate
   * planned in (at 0) and out (at 1), bytes per second, and the bytes delivered in (at 2) and out
   * (at 3) so far. Only flows over the network count.
   */
  void addHostTraffic(Map<String, double[]> byMachine) {
    for (int t = 0; t < receivedBy.length; t++) {
      byMachine.computeIfAbsent(reducerMachines[t], x -> new double[4])[2] += receivedBy[t];
    }
    for (int s = 0; s < sources.length; s++) {
      byMachine.computeIfAbsent(sourceMachines[s], x -> new double[4])[3] += sentFrom[s];
    }
    for (int k = 0; rates != null && k < rates.length; k++) {
      if (!local[k] && rates[k] > 0) {
        byMachine.get(reducerMachines[flowReducer[k]])[0] += rates[k];
        byMachine.get(sourceMachines[sourceOfFlow[k]])[1] += rates[k];
      }
    }
  }

  /** Counts the changes of this stage's rates. */
  long ratesVersion() {
    return ratesVersion;
  }

  /**
   * What its running reducers have left to fetch over the network and the rate they fetch at, one
   * entry per reducer, e.g. {@code r4@7 12.3/40.1 MB at 3.20 MB/s} (reducer 4, running on executor
   * 7: 12.3 of its 40.1 MB left), for logs.
   */
  String status() {
    int n = running.length;
    double[] left = new double[n];
    double[] total = new double[n];
    double[] rate = new double[n];
    for (int k = 0; k < remaining.length; k++) {
      int r = coflow.flows().get(k).reducer();
      if (running[r] && !local[k]) {
        left[r] += remaining[k];
        total[r] += size(k);
        rate[r] += rates == null ? Double.NaN : rates[k];
      }
    }
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < n; r++) {
      if (!running[r]) {
        continue;
      }
      out.append(out.length() == 0 ? "" : ", ")
          .append(
              String.format(
                  java.util.Locale.ROOT,
                  "r%d@%s %.1f/%.1f MB at %.2f MB/s",
                  r,
                  reducerExecutors[r],
                  left[r] / 1e6,
                  total[r] / 1e6,
                  rate[r] / 1e6));
    }
    return out.length() == 0 ? "no reducer fetching" : out.toString();
  }

  /** Where this stage is, for status pages; {@code shuffles} are the ids it reads. */
  FetchingStatus summary(List<Integer> shuffles) {
    double total = 0;
    double left = 0;
    double rate = 0;
    for (int k = 0; k < remaining.length; k++) {
      if (!local[k]) {
        total += size(k);
        left += remaining[k];
        rate += rates == null ? 0 : rates[k];
      }
    }
    int fetching = 0;
    for (boolean r : running) {
      fetching += r ? 1 : 0;
    }
    return new FetchingStatus(
        shuffles, arrival, total, left, rate, List.of(reducerExecutors), fetching, coflow.weight());
  }

  /**
   * The rate of everything one reducer fetches of a shuffle from one executor: the sum of its
   * flows' rates; infinite when the executor is on the reducer's machine (Spark reads such blocks
   * from disk unless told not to, and then over loopback, which no link limits); NaN when no flow
   * matches, no decision covered this coflow, or every flow of it is of known size and over by this
   * count: the reducer still fetching says the count is off (a failed attempt's fetches that went
   * on delivering, say), and a rate of 0 would hold the fetch with nothing to lift it.
   */
  double rateOf(int shuffleId, int reducer, String source) {
    int first = firstFlow(shuffleId, reducer, source);
    if (first >= 0 && local[first]) {
      return Double.POSITIVE_INFINITY;
    }
    if (rates == null || first < 0) {
      return Double.NaN;
    }
    double sum = 0;
    boolean open = false;
    for (int k = first; k >= 0; k = nextFlow[k]) {
      sum += rates[k];
      open |= remaining[k] > 0 || isUnknown(k);
    }
    return open ? sum : Double.NaN;
  }
}
