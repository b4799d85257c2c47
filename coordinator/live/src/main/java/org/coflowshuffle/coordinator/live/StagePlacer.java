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
import java.util.Set;
import java.util.function.DoubleSupplier;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * Places a stage once all the map outputs it reads are in: asks the scheme where its tasks go
 * against the stages still fetching (the paper places reducers after the map stage, section III),
 * on the cores those stages leave and the waves beyond them, and keeps the answer until one of its
 * shuffles is forgotten. Not thread-safe: {@link LiveCoordinator} guards it.
 */
final class StagePlacer {

  /** Until a reduce task has ended, the seconds one is taken to run after its fetches end. */
  static final double TAIL_GUESS_SECONDS = 1.0;

  private final String scheme;
  private final SchemeOptions options;
  private final DoubleSupplier clock;
  private final ExecutorRegistry executors;
  private final MapOutputStore outputs;
  private final FetchingStages fetching;

  /** Per shuffle, the latest placement of a stage reading it. */
  private final Map<Integer, ShufflePlacement> placements = new HashMap<>();

  /** Per set of shuffles read by one stage (sorted ids), its placement. */
  private final Map<List<Integer>, ShufflePlacement> groups = new HashMap<>();

  /** Placements made so far; the next one's scheme is seeded with the options' seed plus this. */
  private long placementsMade;

  /** The number the next placed stage gets for the schemes ({@code FetchingCoflow#index}). */
  private int nextIndex;

  /**
   * Seconds a task placed on an executor whose cores are all taken waits for one there before the
   * application runs it elsewhere (Spark's {@code spark.locality.wait.process}); 0 until told.
   */
  private double slotWait;

  /** Seconds reduce tasks ran after their fetches ended, summed, and how many tasks. */
  private double tailSeconds;

  private int tailsSeen;

  StagePlacer(
      String scheme,
      SchemeOptions options,
      DoubleSupplier clock,
      ExecutorRegistry executors,
      MapOutputStore outputs,
      FetchingStages fetching) {
    this.scheme = scheme;
    this.options = options;
    this.clock = clock;
    this.executors = executors;
    this.outputs = outputs;
    this.fetching = fetching;
  }

  /** See {@link LiveCoordinator#slotWait}; the caller checks the value. */
  void slotWait(double seconds) {
    slotWait = seconds;
  }

  /** A reduce task ran {@code seconds} after its last input arrived (it sorted and wrote). */
  void taskTail(double seconds) {
    tailSeconds += seconds;
    tailsSeen++;
  }

  /** The placement of a stage that reads the shuffle, if one was made; null otherwise. */
  ShufflePlacement placed(int shuffleId) {
    return placements.get(shuffleId);
  }

  /** Whether every executor the placement names is still registered. */
  boolean onExecutorsHere(ShufflePlacement placement) {
    return placement.executorOfReducer().stream().allMatch(e -> executors.has(e.executorId()));
  }

  /**
   * See {@link LiveCoordinator#placeTogether}; a new placement is added to the stages fetching.
   *
   * @throws PlacementUnavailable with a one-line reason
   */
  ShufflePlacement place(int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks, double weight)
      throws PlacementUnavailable {
    int numReducers = tasks.reducers();
    List<Integer> key = Arrays.stream(shuffleIds).sorted().distinct().boxed().toList();
    ShufflePlacement done = groups.get(key);
    if (done != null && onExecutorsHere(done)) {
      return done; // read again, by a later job: where it was read before
    } // else an executor it named left (decommissioned, lost): placed anew on those here now
    for (int i = 0; i < shuffleIds.length; i++) {
      outputs.checkComplete(shuffleIds[i], numMaps[i], numReducers);
    }
    String name = FetchingStages.name(key);
    if (executors.isEmpty()) {
      throw new PlacementUnavailable(
          PlacementUnavailable.Cause.NO_EXECUTORS, "shuffle " + name + ": no executors registered");
    }
    double now = clock.getAsDouble();
    // Tasks of stages still fetching hold their executors' cores until they end: the new stage gets
    // the cores they leave, and waves beyond them (Spark runs a task where a core frees up).
    Map<String, List<Double>> freeing = new HashMap<>();
    Map<String, Integer> held = heldCores(tasks.tasks(), now, freeing);
    int heldOnLive = 0;
    for (ExecutorSlots e : executors.all()) { // cores held past what the new stage may wait for
      String id = e.executorId();
      heldOnLive += held.getOrDefault(id, 0) - freeing.getOrDefault(id, List.of()).size();
    }
    HostIndex hosts = executors.hostIndex(tasks.tasks() + heldOnLive);
    int[] slotsInUse = new int[hosts.size()];
    double[][] slotsFreeing = new double[hosts.size()][];
    for (int h = 0; h < slotsInUse.length; h++) { // a machine's cores are its executors'
      List<Double> times = new ArrayList<>();
      for (ExecutorSlots e : hosts.executors(h)) {
        slotsInUse[h] += held.getOrDefault(e.executorId(), 0);
        times.addAll(freeing.getOrDefault(e.executorId(), List.of()));
      }
      slotsFreeing[h] = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }
    MapOutputStore.FlowOrigins origins = new MapOutputStore.FlowOrigins();
    Coflow coflow =
        outputs.coflow("shuffle-" + name, shuffleIds, tasks, now, hosts, origins, weight);
    List<ActiveCoflow> active = new ArrayList<>();
    for (FetchingCoflow p : fetching.all()) {
      ActiveCoflow a = p.pinned(hosts, now, false);
      if (a != null) {
        active.add(a);
      }
    }
    int index = nextIndex++; // unique is enough: one that is refused leaves a gap
    active.add(unplaced(index, coflow));
    int[] hostOf = reducerHosts(hosts, active, slotsInUse, slotsFreeing, now);
    if (hostOf == null) {
      // The scheme made it wait behind others; Spark runs it now, so place it alone.
      hostOf = reducerHosts(hosts, List.of(unplaced(index, coflow)), slotsInUse, slotsFreeing, now);
    }
    if (hostOf == null) {
      throw new PlacementUnavailable(
          PlacementUnavailable.Cause.SCHEME,
          "shuffle " + name + ": scheme " + scheme + " left a task without a host");
    }
    List<ExecutorSlots> chosen = new ArrayList<>(numReducers);
    List<String> ids = new ArrayList<>(hostOf.length);
    Map<String, Integer> load = new HashMap<>(held);
    for (int t = 0; t < hostOf.length; t++) {
      ExecutorSlots e = freest(hosts.executors(hostOf[t]), load);
      load.merge(e.executorId(), 1, Integer::sum);
      ids.add(e.executorId());
      for (int r = tasks.first(t); r < tasks.end(t); r++) {
        chosen.add(e);
      }
    }
    ShufflePlacement placement = new ShufflePlacement(key, scheme, chosen, tasks, weight);
    groups.put(key, placement);
    for (int id : key) {
      placements.put(id, placement);
    }
    fetching.add(
        key,
        new FetchingCoflow(
            index,
            coflow,
            now,
            ids,
            origins.sources,
            executors::machineOf,
            origins.sourceOfFlow(),
            origins.shuffles(),
            origins.reducers(),
            tasks,
            origins.unknownFlags(),
            origins.assumed));
    return placement;
  }

  /**
   * Of a machine's executors, the one with the most cores free after {@code load} tasks each: the
   * scheme chose the machine, and a task placed on a busy executor of it would wait or run
   * elsewhere while a core of the next is free. The first to have joined among equals.
   */
  private static ExecutorSlots freest(List<ExecutorSlots> on, Map<String, Integer> load) {
    ExecutorSlots best = on.get(0);
    for (ExecutorSlots e : on) {
      if (free(e, load) > free(best, load)) {
        best = e;
      }
    }
    return best;
  }

  private static int free(ExecutorSlots e, Map<String, Integer> load) {
    return e.cores() - load.getOrDefault(e.executorId(), 0);
  }

  /** Adds the shuffles a placement is kept for. */
  void addShuffles(Set<Integer> to) {
    to.addAll(placements.keySet());
    groups.keySet().forEach(to::addAll);
  }

  /** The shuffle is gone: so is every placement of a stage that read it. */
  void forget(int shuffleId) {
    groups.keySet().removeIf(group -> group.contains(shuffleId));
    placements.values().removeIf(p -> p.shuffleIds().contains(shuffleId));
  }

  /**
   * Per executor, the cores that tasks of stages still fetching hold or will; and into {@code
   * offered}, ascending per executor, the times at which those a new stage of {@code tasks} tasks
   * may wait for free up: each whose task ends (its fetches, then {@link #taskTail()}) within
   * Spark's wait for a preferred executor ({@link #slotWait}), and, when fewer than {@code tasks}
   * cores are free or freeing that soon, the next to free. A task placed on a core that stays taken
   * past that wait runs elsewhere. A task waiting for a core takes the first to free on its
   * executor, so the new stage gets the ones after.
   */
  private Map<String, Integer> heldCores(int tasks, double now, Map<String, List<Double>> offered) {
    Map<String, List<Double>> ends = new HashMap<>();
    fetching.all().forEach(f -> f.fetchEnds(ends));
    Map<String, Integer> held = new HashMap<>();
    ends.forEach((id, e) -> held.put(id, e.size()));
    int missing = tasks;
    List<Map.Entry<Double, String>> freeing = new ArrayList<>();
    for (ExecutorSlots e : executors.all()) {
      List<Double> on = ends.computeIfAbsent(e.executorId(), x -> new ArrayList<>());
      missing -= Math.max(0, e.cores() - on.size());
      on.sort(null);
      for (int i = Math.max(0, on.size() - e.cores()); i < on.size(); i++) {
        if (on.get(i) < Double.POSITIVE_INFINITY) {
          freeing.add(Map.entry(on.get(i), e.executorId()));
        }
      }
    }
    freeing.sort(Map.Entry.comparingByKey());
    double tail = taskTail();
    for (int i = 0; i < freeing.size(); i++) {
      double in = freeing.get(i).getKey() + tail;
      if (i < missing || in <= slotWait) {
        offered.computeIfAbsent(freeing.get(i).getValue(), x -> new ArrayList<>()).add(now + in);
      }
    }
    return held;
  }

  /**
   * Seconds a reduce task runs after its last input arrived (it sorts and writes): the mean over
   * the tasks seen so far, {@link #TAIL_GUESS_SECONDS} before any.
   */
  private double taskTail() {
    return tailsSeen == 0 ? TAIL_GUESS_SECONDS : tailSeconds / tailsSeen;
  }

  /**
   * A placement by a fresh instance of the scheme: placing is a one-off question per stage, and
   * each gets the next seed, since schemes that place at random (varys, fair) would otherwise draw
   * the same hosts for every shuffle.
   */
  private Decision placementDecision(
      List<Host> hosts,
      List<ActiveCoflow> active,
      int[] slotsInUse,
      double[][] slotsFreeing,
      double now) {
    SchemeOptions seeded =
        new SchemeOptions(
            options.seed() + placementsMade++,
            options.starvationThreshold(),
            options.workConserving(),
            true);
    return Schemes.create(scheme, seeded)
        .decide(
            new ClusterView(
                now, hosts, active, slotsInUse, Fabric.bigSwitch(hosts.size()), slotsFreeing));
  }

  /**
   * The reducer hosts the scheme chose for the last coflow of {@code active}, or null if any is
   * unset.
   */
  private int[] reducerHosts(
      HostIndex hosts,
      List<ActiveCoflow> active,
      int[] slotsInUse,
      double[][] slotsFreeing,
      double now) {
    List<Host> list = hosts.hosts();
    int[] inUse = Arrays.copyOf(slotsInUse, list.size()); // hosts added since are send-only
    double[][] freeing = Arrays.copyOf(slotsFreeing, list.size());
    for (int h = slotsFreeing.length; h < freeing.length; h++) {
      freeing[h] = new double[0];
    }
    List<CoflowAssignment> out = placementDecision(list, active, inUse, freeing, now).assignments();
    int[] hostOf = out.get(out.size() - 1).hostOf();
    for (int h : hostOf) {
      if (h < 0 || h >= list.size() || !list.get(h).acceptsReducers()) {
        return null;
      }
    }
    return hostOf;
  }

  /** A coflow that has just arrived: no reducer placed, nothing moved. */
  private static ActiveCoflow unplaced(int index, Coflow c) {
    int[] hostOf = new int[c.reducers().size()];
    Arrays.fill(hostOf, -1);
    List<Flow> flows = c.flows();
    double[] remaining = new double[flows.size()];
    int[] src = new int[flows.size()];
    int[] reducer = new int[flows.size()];
    for (int k = 0; k < flows.size(); k++) {
      remaining[k] = flows.get(k).bytes();
      src[k] = flows.get(k).src();
      reducer[k] = flows.get(k).reducer();
    }
    return new ActiveCoflow(
        index, c, remaining, 0, hostOf, new boolean[hostOf.length], 0, 0, src, reducer, null);
  }
}
