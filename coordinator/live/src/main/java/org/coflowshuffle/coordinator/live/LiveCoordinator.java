/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.SizeKnowledge;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.core.scheme.SizeLearning;

/**
 * The scheduling state of one cluster's shuffles, fed by live events: executors that come and go,
 * the exact bytes each map task wrote per reducer, and shuffles whose reducers finished. When a
 * shuffle's map output is complete, {@link #place} asks the configured scheme where its reducers
 * go, against the shuffles still being fetched (the paper places reducers after the map stage,
 * section III).
 *
 * <p>Each executor is one host of the model, with the configured bandwidth both ways and as many
 * reducer slots as it has cores times the waves the shuffle needs, less the tasks of stages still
 * fetching that hold its cores, so a shuffle with more reducers than free cores is spread over
 * waves instead of being refused or crowded onto busy cores. Every call is synchronized: events
 * arrive on the transport's threads and placements are asked on the scheduler's.
 *
 * <p>A map output may come without sizes (a shuffle that starts before they are measured). Its
 * stage is then placed as if each such flow were as large as the stage's flows of known size on
 * average ({@link #ASSUMED_FLOW_BYTES} when it has none), and its rates come from the scheme with
 * Philae's sampling in front ({@link SizeLearning}): pilot flows first, then the stage takes its
 * place among the others by what they showed. Schemes that learn sizes themselves ({@code aalo},
 * {@code philae}) get such a stage as it is, each flow of unknown size as large as it has received
 * once it ended.
 */
public final class LiveCoordinator implements ShuffleCoordinator {

  /** One map task's output: the executor holding it and its bytes per reducer (null: unknown). */
  private record MapOutput(String executorId, long[] bytesPerReducer) {}

  /**
   * Bytes assumed per flow of unknown size when placing a stage none of whose sizes are known: a
   * placeholder that spreads its reducers by the executors' free cores and links, not a size any
   * decision of rates uses.
   */
  static final double ASSUMED_FLOW_BYTES = 1 << 20;

  private final String scheme;
  private final SchemeOptions options;
  private final double bytesPerSecond;
  private final Map<String, Double> hostBytesPerSecond;

  /** Per host, the share of its link that other traffic leaves (1 unless a broker reported). */
  private final Map<String, double[]> freeShare = new HashMap<>();

  private final DoubleSupplier clock;
  private final Map<String, ExecutorSlots> executors = new LinkedHashMap<>();
  private final Map<Integer, Map<Integer, MapOutput>> outputs = new HashMap<>();

  /** Per shuffle, the latest placement of a stage reading it. */
  private final Map<Integer, ShufflePlacement> placements = new HashMap<>();

  /** Per set of shuffles read by one stage (sorted ids), its placement. */
  private final Map<List<Integer>, ShufflePlacement> groups = new HashMap<>();

  private final Map<List<Integer>, FetchingCoflow> fetching = new LinkedHashMap<>();

  /** The same stages by each shuffle they read. */
  private final Map<Integer, FetchingCoflow> fetchingById = new HashMap<>();

  /**
   * Progress reports that complete no flow bring the scheme's view of what is left up to date at
   * most this often, seconds: the paper decides again on arrivals and completions, and deciding on
   * every report would cost a decision per fetched block.
   */
  static final double PROGRESS_REFRESH_SECONDS = 1.0;

  /** When {@link #status} was last called, on the coordinator's clock. */
  private double lastStatusAt = Double.NaN;

  /**
   * Per executor, bytes that stages which stopped fetching since then delivered after the last
   * {@link #status} saw them (at index 1; no rate at index 0).
   */
  private final Map<String, double[]> sentByStopped = new HashMap<>();

  /** Placements made so far; the next one's scheme is seeded with the options' seed plus this. */
  private long placementsMade;

  /** The number the next placed stage gets for the schemes ({@code FetchingCoflow#index}). */
  private int nextIndex;

  /**
   * The scheme instance that decides rates, kept for as long as this coordinator: schemes that
   * learn as coflows progress (Philae's pilot samples, FCA's guarantees to flows that started
   * earlier) are what they are only if one instance sees every decision; so does the sampling of
   * stages whose sizes are not known.
   */
  private final SizeLearning rateScheme;

  /**
   * Seconds a task placed on an executor whose cores are all taken waits for one there before the
   * application runs it elsewhere (Spark's {@code spark.locality.wait.process}); 0 until told.
   */
  private double slotWait;

  /** Until a reduce task has ended, the seconds one is taken to run after its fetches end. */
  static final double TAIL_GUESS_SECONDS = 1.0;

  /** Seconds reduce tasks ran after their fetches ended, summed, and how many tasks. */
  private double tailSeconds;

  private int tailsSeen;

  /** When rates were last decided, on the clock. */
  private double decidedAt = Double.NEGATIVE_INFINITY;

  /** Rates must be decided again before they are read: something changed, or a wake-up is due. */
  private boolean ratesStale = true;

  private double ratesWakeUp = Double.POSITIVE_INFINITY;

  /**
   * A coordinator where every executor has the same bandwidth.
   *
   * @param scheme one of {@link Schemes#names()}
   * @param options the scheme's options
   * @param bytesPerSecond bandwidth of every executor, each way, bytes per second
   * @param clock seconds, monotonic; arrival times of shuffles are read from it
   * @throws IllegalArgumentException for an unknown scheme or a bandwidth that is not positive
   */
  public LiveCoordinator(
      String scheme, SchemeOptions options, double bytesPerSecond, DoubleSupplier clock) {
    this(scheme, options, bytesPerSecond, Map.of(), clock);
  }

  /**
   * A coordinator where some machines have links of their own speed.
   *
   * @param hostBytesPerSecond bandwidth by host name, each way, for the executors on those hosts;
   *     others have {@code bytesPerSecond}
   * @throws IllegalArgumentException for an unknown scheme or a bandwidth that is not positive
   */
  public LiveCoordinator(
      String scheme,
      SchemeOptions options,
      double bytesPerSecond,
      Map<String, Double> hostBytesPerSecond,
      DoubleSupplier clock) {
    this.scheme = Schemes.require(scheme);
    requirePositive("executor bandwidth", bytesPerSecond);
    hostBytesPerSecond.forEach((host, bw) -> requirePositive("bandwidth of " + host, bw));
    this.options = options;
    this.bytesPerSecond = bytesPerSecond;
    this.hostBytesPerSecond = Map.copyOf(hostBytesPerSecond);
    this.clock = clock;
    this.rateScheme = new SizeLearning(Schemes.create(this.scheme, options));
  }

  private static void requirePositive(String what, double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException(what + " must be > 0 bytes/s: " + bytesPerSecond);
    }
  }

  private HostIndex hostIndex(int reducers) {
    return new HostIndex(
        executors.values(),
        reducers,
        host -> link(host) * freeShare.getOrDefault(host, FULL)[0],
        host -> link(host) * freeShare.getOrDefault(host, FULL)[1],
        bytesPerSecond);
  }

  private static final double[] FULL = {1, 1};

  private double link(String host) {
    return hostBytesPerSecond.getOrDefault(host, bytesPerSecond);
  }

  /**
   * What a host's links carry besides shuffles, as its broker measured (the paper's site broker):
   * the schemes see the link minus this, but never less than {@code minShare} of it.
   *
   * @param inBytesPerSecond other traffic arriving, bytes per second
   * @param outBytesPerSecond other traffic leaving, bytes per second
   * @param minShare the least share of the link assumed free, in (0, 1]
   * @return the bytes per second left in and out for shuffles
   */
  public synchronized double[] otherTraffic(
      String host, double inBytesPerSecond, double outBytesPerSecond, double minShare) {
    double link = link(host);
    double[] share = {
      Math.max(minShare, 1 - inBytesPerSecond / link),
      Math.max(minShare, 1 - outBytesPerSecond / link)
    };
    share[0] = Math.min(1, share[0]);
    share[1] = Math.min(1, share[1]);
    if (!Arrays.equals(share, freeShare.getOrDefault(host, FULL))) {
      freeShare.put(host, share);
      ratesStale = true;
    }
    return new double[] {link * share[0], link * share[1]};
  }

  /**
   * How long the application keeps a task waiting for the executor it was placed on while that
   * executor's cores are taken ({@code spark.locality.wait.process} in Spark): a new stage may then
   * be placed on cores whose tasks end within it, and wait for a fast host rather than take a slow
   * one now. With 0 (the default) only as many cores as the stage lacks are waited for, the soonest
   * to free.
   *
   * @throws IllegalArgumentException for a negative or non-finite wait
   */
  @Override
  public synchronized void slotWait(double seconds) {
    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("slot wait must be >= 0 seconds: " + seconds);
    }
    slotWait = seconds;
  }

  /** An executor joined (or changed); it may now host reducers. */
  @Override
  public synchronized void executorAdded(ExecutorSlots executor) {
    executors.put(executor.executorId(), executor);
  }

  /** An executor left; it hosts no new reducers. */
  @Override
  public synchronized void executorRemoved(String executorId) {
    executors.remove(executorId);
  }

  /**
   * One map task's output, as its writer measured it, or with {@code bytesPerReducer} null where
   * its sizes are not known. A later report for the same map index (a retried task) replaces the
   * earlier one.
   *
   * @throws IllegalArgumentException when a count is negative or the ids are empty
   */
  @Override
  public synchronized void mapOutput(
      int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer) {
    if (shuffleId < 0 || mapIndex < 0 || executorId == null || executorId.isEmpty()) {
      throw new IllegalArgumentException(
          "map output: shuffle " + shuffleId + ", map " + mapIndex + ", executor " + executorId);
    }
    for (long b : bytesPerReducer == null ? new long[0] : bytesPerReducer) {
      if (b < 0) {
        throw new IllegalArgumentException(
            "map output of shuffle " + shuffleId + " map " + mapIndex + ": negative size " + b);
      }
    }
    outputs
        .computeIfAbsent(shuffleId, k -> new HashMap<>())
        .put(
            mapIndex,
            new MapOutput(executorId, bytesPerReducer == null ? null : bytesPerReducer.clone()));
  }

  /**
   * Where the reducers of a shuffle run: the placement of a stage that reads it, if one was made
   * ({@link #placeTogether}); otherwise decided now for this shuffle alone.
   *
   * @throws PlacementUnavailable with a one-line reason: map output incomplete, no executors, or
   *     the scheme left a reducer without a host
   */
  @Override
  public synchronized ShufflePlacement place(int shuffleId, int numMaps, int numReducers)
      throws PlacementUnavailable {
    ShufflePlacement done = placements.get(shuffleId);
    if (done != null) {
      return done;
    }
    return placeTogether(new int[] {shuffleId}, new int[] {numMaps}, numReducers);
  }

  /**
   * Where the tasks of a stage reading the given shuffles run: one coflow of all their flows, whose
   * reducers are the stage's tasks (a task of coalesced partitions receives what all its reducers
   * do), decided at the first call once all their map outputs are known, then the same answer until
   * one of them is {@linkplain #forget forgotten}.
   *
   * @param shuffleIds the shuffles the stage reads, each partitioned into {@code tasks.reducers()}
   * @param numMaps per shuffle, its map tasks
   * @param weight the coflow's weight against others, positive
   * @throws PlacementUnavailable with a one-line reason: map output incomplete, no executors, or
   *     the scheme left a task without a host
   */
  @Override
  public synchronized ShufflePlacement placeTogether(
      int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks, double weight)
      throws PlacementUnavailable {
    int numReducers = tasks.reducers();
    List<Integer> key = Arrays.stream(shuffleIds).sorted().distinct().boxed().toList();
    ShufflePlacement done = groups.get(key);
    if (done != null) {
      return done;
    }
    for (int i = 0; i < shuffleIds.length; i++) {
      checkComplete(shuffleIds[i], numMaps[i], numReducers);
    }
    if (executors.isEmpty()) {
      throw new PlacementUnavailable("shuffle " + name(key) + ": no executors registered");
    }
    double now = clock.getAsDouble();
    // Tasks of stages still fetching hold their executors' cores until they end: the new stage gets
    // the cores they leave, and waves beyond them (Spark runs a task where a core frees up).
    Map<String, List<Double>> freeing = new HashMap<>();
    Map<String, Integer> held = heldCores(tasks.tasks(), now, freeing);
    int heldOnLive = 0;
    for (String id : executors.keySet()) { // cores held past what the new stage may wait for
      heldOnLive += held.getOrDefault(id, 0) - freeing.getOrDefault(id, List.of()).size();
    }
    HostIndex hosts = hostIndex(tasks.tasks() + heldOnLive);
    int[] slotsInUse = new int[hosts.size()];
    double[][] slotsFreeing = new double[hosts.size()][];
    for (int h = 0; h < slotsInUse.length; h++) {
      String id = hosts.executor(h).executorId();
      slotsInUse[h] = held.getOrDefault(id, 0);
      slotsFreeing[h] =
          freeing.getOrDefault(id, List.of()).stream().mapToDouble(Double::doubleValue).toArray();
    }
    FlowOrigins origins = new FlowOrigins();
    Coflow coflow = coflow(key, shuffleIds, numMaps, tasks, now, hosts, origins, weight);
    List<ActiveCoflow> active = new ArrayList<>();
    for (FetchingCoflow p : fetching.values()) {
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
          "shuffle " + name(key) + ": scheme " + scheme + " left a task without a host");
    }
    List<ExecutorSlots> chosen = new ArrayList<>(numReducers);
    List<String> ids = new ArrayList<>(hostOf.length);
    for (int t = 0; t < hostOf.length; t++) {
      ExecutorSlots e = hosts.executor(hostOf[t]);
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
    FetchingCoflow f =
        new FetchingCoflow(
            index,
            coflow,
            now,
            ids,
            origins.sources,
            origins.shuffles.stream().mapToInt(Integer::intValue).toArray(),
            origins.reducers.stream().mapToInt(Integer::intValue).toArray(),
            tasks,
            origins.unknownFlags(),
            origins.assumed);
    fetching.put(key, f);
    key.forEach(id -> fetchingById.put(id, f));
    ratesStale = true;
    return placement;
  }

  /**
   * Per executor, the cores that tasks of stages still fetching hold or will; and into {@code
   * offered}, ascending per executor, the times at which those a new stage of {@code tasks} tasks
   * may wait for free up: each whose task ends (its fetches, then {@link #taskTail}) within Spark's
   * wait for a preferred executor ({@link #slotWait}), and, when fewer than {@code tasks} cores are
   * free or freeing that soon, the next to free. A task placed on a core that stays taken past that
   * wait runs elsewhere. A task waiting for a core takes the first to free on its executor, so the
   * new stage gets the ones after.
   */
  private Map<String, Integer> heldCores(int tasks, double now, Map<String, List<Double>> offered) {
    Map<String, List<Double>> ends = new HashMap<>();
    fetching.values().forEach(f -> f.fetchEnds(ends));
    Map<String, Integer> held = new HashMap<>();
    ends.forEach((id, e) -> held.put(id, e.size()));
    int missing = tasks;
    List<Map.Entry<Double, String>> freeing = new ArrayList<>();
    for (ExecutorSlots e : executors.values()) {
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

  private void checkComplete(int shuffleId, int numMaps, int numReducers)
      throws PlacementUnavailable {
    Map<Integer, MapOutput> maps = outputs.getOrDefault(shuffleId, Map.of());
    for (int m = 0; m < numMaps; m++) {
      MapOutput out = maps.get(m);
      if (out == null) {
        throw new PlacementUnavailable(
            "shuffle " + shuffleId + ": no size report for map " + m + " of " + numMaps);
      }
      if (out.bytesPerReducer() != null && out.bytesPerReducer().length != numReducers) {
        throw new PlacementUnavailable(
            "shuffle "
                + shuffleId
                + ": map "
                + m
                + " reported "
                + out.bytesPerReducer().length
                + " reducers, the stage has "
                + numReducers);
      }
    }
  }

  private static String name(List<Integer> shuffleIds) {
    return shuffleIds.stream().map(String::valueOf).collect(Collectors.joining("+"));
  }

  /** The shuffle's reducers are done fetching: it no longer competes with later shuffles. */
  @Override
  public synchronized void fetchFinished(int shuffleId) {
    stopFetching(shuffleId);
  }

  private void stopFetching(int shuffleId) {
    FetchingCoflow c = fetchingById.get(shuffleId);
    if (c != null) {
      Map<String, double[]> out = new HashMap<>();
      c.addLinksOut(out);
      out.forEach((e, v) -> add(sentByStopped, e, new double[] {0, v[1]}));
      fetching.values().remove(c);
      fetchingById.values().removeIf(x -> x == c);
      ratesStale = true;
    }
  }

  /** A reduce task of a stage reading the shuffle ended: its reducers no longer compete. */
  @Override
  public synchronized void reducerDone(int shuffleId, int reducer) {
    FetchingCoflow c = fetchingWith(shuffleId);
    if (c != null) {
      int task = c.taskOf(reducer);
      double tail = c.sinceFetched(task, clock.getAsDouble());
      c.taskEnded(task);
      if (c.running(task, false)) {
        ratesStale = true;
        if (tail >= 0) {
          tailSeconds += tail;
          tailsSeen++;
        }
      }
    }
  }

  /**
   * Seconds a reduce task runs after its last input arrived (it sorts and writes): the mean over
   * the tasks seen so far, {@link #TAIL_GUESS_SECONDS} before any.
   */
  private double taskTail() {
    return tailsSeen == 0 ? TAIL_GUESS_SECONDS : tailSeconds / tailsSeen;
  }

  /**
   * A reducer received {@code bytes} of a shuffle from one executor (progress, so that the scheme
   * sees what is left). Unknown shuffles are ignored.
   */
  @Override
  public synchronized void delivered(int shuffleId, int reducer, String source, long bytes) {
    FetchingCoflow c = fetchingWith(shuffleId);
    if (c != null && bytes > 0) {
      if (c.delivered(shuffleId, reducer, source, bytes)) {
        c.fetchedBy(reducer, clock.getAsDouble());
        ratesStale = true; // a flow completed: Algorithm 1 runs again now
      } else {
        // Progress alone: the order by remaining time is brought up to date soon, not per report.
        ratesWakeUp = Math.min(ratesWakeUp, decidedAt + PROGRESS_REFRESH_SECONDS);
      }
    }
  }

  /**
   * A reducer has everything it fetches of a shuffle from one executor: its flows from there are
   * over (how a flow of unknown size ends). Unknown shuffles are ignored.
   */
  @Override
  public synchronized void fetched(int shuffleId, int reducer, String source) {
    FetchingCoflow c = fetchingWith(shuffleId);
    if (c != null && c.fetched(shuffleId, reducer, source)) {
      c.fetchedBy(reducer, clock.getAsDouble());
      ratesStale = true; // a flow completed
    }
  }

  /**
   * Whether something happened that the current rates do not answer yet (an arrival, a flow or
   * reducer completing, a bandwidth change), so a server should decide and push now.
   */
  public synchronized boolean decisionDue() {
    return ratesStale;
  }

  /**
   * Bytes per second at which a reducer should fetch what a shuffle holds for it on one executor,
   * from the scheme's current decision over the reducers fetching now (asking marks this one as
   * fetching, until {@link #reducerDone}): 0 while its coflow waits behind shorter ones, {@link
   * Double#POSITIVE_INFINITY} when the shuffle is not being scheduled (unknown, finished, or its
   * flows were not modelled).
   *
   * @param fetcher the executor the reducer runs on (null if unknown): the decision follows it when
   *     it is not where the reducer was placed
   */
  @Override
  public synchronized double rate(int shuffleId, int reducer, String source, String fetcher) {
    FetchingCoflow c = fetchingWith(shuffleId);
    if (c == null) {
      return Double.POSITIVE_INFINITY;
    }
    fetching(shuffleId, reducer, fetcher);
    double now = clock.getAsDouble();
    if (ratesStale || now >= ratesWakeUp) {
      decideRates(now);
    }
    double r = c.rateOf(shuffleId, reducer, source);
    return Double.isNaN(r) ? Double.POSITIVE_INFINITY : r;
  }

  /**
   * Marks a reducer as fetching, on {@code fetcher} (null if unknown), until {@link #reducerDone},
   * without deciding: what {@link #rate} does first, for a server that decides once for every
   * request it has queued (see {@link #refreshRates}). Unknown shuffles are ignored.
   */
  public synchronized void fetching(int shuffleId, int reducer, String fetcher) {
    FetchingCoflow c = fetchingWith(shuffleId);
    if (c != null) {
      int task = c.taskOf(reducer);
      ratesStale |= c.running(task, true);
      ratesStale |= c.runsOn(task, fetcher);
    }
  }

  /**
   * Decides rates now if anything changed since the last decision or its wake-up time has come
   * (what {@link #rate} does before answering), so that a server can push the new rates.
   *
   * @return whether a decision was made
   */
  public synchronized boolean refreshRates() {
    double now = clock.getAsDouble();
    if (!ratesStale && now < ratesWakeUp) {
      return false;
    }
    decideRates(now);
    return true;
  }

  /**
   * When the current decision asked to be made again even if nothing happens (the scheme's own
   * timer, such as the starvation threshold), seconds on the clock; infinite for never.
   */
  public synchronized double wakeUpAt() {
    return ratesWakeUp;
  }

  private FetchingCoflow fetchingWith(int shuffleId) {
    return fetchingById.get(shuffleId);
  }

  /**
   * The flows one reducer fetches of a shuffle from one executor, as indices into {@link
   * #flowRates}: a handle a server keeps to read rates without looking the flow up again. Null when
   * the shuffle is not being fetched or holds nothing there for the reducer.
   */
  public synchronized int[] flowsOf(int shuffleId, int reducer, String source) {
    FetchingCoflow c = fetchingWith(shuffleId);
    return c == null ? null : c.flowsOf(shuffleId, reducer, source);
  }

  /**
   * The current rate of every flow of the stage reading this shuffle, indexed as {@link #flowsOf}
   * (a copy); null when it is not being fetched or no decision covers it (its flows go unpaced).
   */
  public synchronized double[] flowRates(int shuffleId) {
    FetchingCoflow c = fetchingWith(shuffleId);
    return c == null ? null : c.ratesCopy();
  }

  /**
   * A number that changes whenever the rates of the stage reading this shuffle change, so a server
   * pushes only what changed; -1 when it is not being fetched.
   */
  public synchronized long ratesVersion(int shuffleId) {
    FetchingCoflow c = fetchingWith(shuffleId);
    return c == null ? -1 : c.ratesVersion();
  }

  /** One decision of the scheme over every stage still fetching; its rates until the next. */
  private void decideRates(double now) {
    decidedAt = now;
    HostIndex hosts = hostIndex(0);
    List<ActiveCoflow> active = new ArrayList<>();
    List<FetchingCoflow> of = new ArrayList<>();
    for (FetchingCoflow c : fetching.values()) {
      ActiveCoflow a = c.anyRunning() ? c.pinned(hosts, now, true) : null;
      if (a != null) {
        active.add(a);
        of.add(c);
      } else {
        c.rates(null);
      }
    }
    ratesStale = false;
    ratesWakeUp = Double.POSITIVE_INFINITY;
    if (active.isEmpty()) {
      return;
    }
    Map<Integer, SizeKnowledge> partial = new HashMap<>();
    for (FetchingCoflow c : fetching.values()) {
      SizeKnowledge k = c.knowledge();
      if (k != null) {
        partial.put(c.index, k);
      }
    }
    List<Host> list = hosts.hosts();
    Decision d =
        rateScheme.decide(new ClusterView(now, list, active, new int[list.size()]), partial);
    for (int i = 0; i < of.size(); i++) {
      of.get(i).rates(d.assignments().get(i).rates());
    }
    for (FetchingCoflow c : fetching.values()) {
      c.assume(rateScheme.estimate(c.index)); // a no-op for stages whose sizes are all known
    }
    ratesWakeUp = d.wakeUpAt();
  }

  /** The shuffle is gone (unregistered): drop everything known about it. */
  @Override
  public synchronized void forget(int shuffleId) {
    stopFetching(shuffleId);
    groups.keySet().removeIf(group -> group.contains(shuffleId));
    placements.values().removeIf(p -> p.shuffleIds().contains(shuffleId));
    outputs.remove(shuffleId);
  }

  /**
   * One line per placed stage still fetching: its shuffles, then per running reducer the bytes it
   * has left and its current rate (see {@code FetchingCoflow#status}), then per sending host the
   * rate planned out against the rate delivered since the previous call; and a last line of those
   * per host over all stages. For the driver's periodic log: each call starts the next window of
   * delivered bytes, so one caller should make them.
   */
  @Override
  public synchronized List<String> status() {
    double now = clock.getAsDouble();
    double since = now - lastStatusAt;
    lastStatusAt = now;
    List<String> lines = new ArrayList<>();
    Map<String, double[]> all = new TreeMap<>();
    fetching.forEach(
        (key, c) -> {
          Map<String, double[]> byExecutor = new HashMap<>();
          c.addLinksOut(byExecutor);
          Map<String, double[]> byHost = new TreeMap<>();
          byExecutor.forEach((e, v) -> add(byHost, hostOf(e), v));
          byHost.forEach((h, v) -> add(all, h, v));
          String out = linksOut(byHost, since);
          lines.add(
              "shuffle " + name(key) + ": " + c.status() + (out.isEmpty() ? "" : "; out " + out));
        });
    sentByStopped.forEach((e, v) -> add(all, hostOf(e), v));
    sentByStopped.clear();
    String out = linksOut(all, since);
    if (!out.isEmpty()) {
      lines.add("links out " + out);
    }
    return lines;
  }

  private static void add(Map<String, double[]> to, String host, double[] rateAndBytes) {
    double[] v = to.computeIfAbsent(host, x -> new double[2]);
    v[0] += rateAndBytes[0];
    v[1] += rateAndBytes[1];
  }

  /**
   * Per host, the rate out that the current decision gives against the rate delivered over the last
   * {@code since} seconds, e.g. {@code (planned/delivered MB/s): h5 0.24/0.19}. Where the second
   * falls short of the first, the plan is not what the links carry: the reducers started late, or
   * their fetches cannot keep the pace. Empty on the first call ({@code since} NaN), which only
   * starts the count.
   */
  private static String linksOut(Map<String, double[]> byHost, double since) {
    StringBuilder out = new StringBuilder();
    byHost.forEach(
        (h, v) -> {
          if (since > 0 && (v[0] > 0 || v[1] > 0)) {
            out.append(out.length() == 0 ? "" : ", ")
                .append(
                    String.format(Locale.ROOT, "%s %.2f/%.2f", h, v[0] / 1e6, v[1] / since / 1e6));
          }
        });
    return out.length() == 0 ? "" : "(planned/delivered MB/s): " + out;
  }

  private String hostOf(String executorId) {
    ExecutorSlots e = executors.get(executorId);
    return e == null ? executorId : e.host();
  }

  /** Each placed stage still fetching, for status pages and metrics. */
  public synchronized List<FetchingStatus> snapshot() {
    List<FetchingStatus> out = new ArrayList<>();
    fetching.forEach((key, c) -> out.add(c.summary(key)));
    return out;
  }

  /** Number of shuffles placed and still fetching. */
  public synchronized int fetchingShuffles() {
    return fetching.size();
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

  /**
   * Per flow of a coflow being built: the executor, shuffle and reducer it comes from and goes to.
   */
  private static final class FlowOrigins {
    final List<String> sources = new ArrayList<>();
    final List<Integer> shuffles = new ArrayList<>();
    final List<Integer> reducers = new ArrayList<>();

    /** The flows of unknown size: those from {@code knownFlows} on. */
    int knownFlows = -1;

    /** Bytes assumed per flow of unknown size. */
    double assumed = ASSUMED_FLOW_BYTES;

    /** Per flow, whether its size is unknown; null when none is. */
    boolean[] unknownFlags() {
      if (knownFlows < 0 || knownFlows == sources.size()) {
        return null;
      }
      boolean[] flags = new boolean[sources.size()];
      Arrays.fill(flags, knownFlows, flags.length, true);
      return flags;
    }
  }

  /**
   * The stage's coflow: one reducer of the model per task, and one flow per map output and reducer
   * with bytes, going to the task that reads that reducer. The flows of map outputs without sizes
   * come last, one per map output and reducer, each assumed as large as the flows of known size on
   * average (see {@link #ASSUMED_FLOW_BYTES}).
   */
  private Coflow coflow(
      List<Integer> key,
      int[] shuffleIds,
      int[] numMaps,
      ReduceTaskRanges tasks,
      double now,
      HostIndex hosts,
      FlowOrigins origins,
      double weight) {
    String id = "shuffle-" + name(key);
    List<Reducer> reducers = new ArrayList<>(tasks.tasks());
    for (int t = 0; t < tasks.tasks(); t++) {
      reducers.add(Reducer.free(id + "-r" + t));
    }
    List<Flow> flows = new ArrayList<>();
    double knownBytes = 0;
    for (boolean sized : new boolean[] {true, false}) {
      if (!sized) {
        origins.knownFlows = flows.size();
        origins.assumed = flows.isEmpty() ? ASSUMED_FLOW_BYTES : knownBytes / flows.size();
      }
      for (int i = 0; i < shuffleIds.length; i++) {
        Map<Integer, MapOutput> maps = outputs.get(shuffleIds[i]);
        for (int m = 0; m < numMaps[i]; m++) {
          MapOutput out = maps.get(m);
          long[] bytes = out.bytesPerReducer();
          if ((bytes != null) != sized) {
            continue;
          }
          int src = hosts.indexOrSender(out.executorId());
          for (int t = 0; t < tasks.tasks(); t++) {
            for (int r = tasks.first(t); r < tasks.end(t); r++) {
              if (!sized || bytes[r] > 0) {
                knownBytes += sized ? bytes[r] : 0;
                flows.add(new Flow(src, t, sized ? bytes[r] : origins.assumed));
                origins.sources.add(out.executorId());
                origins.shuffles.add(shuffleIds[i]);
                origins.reducers.add(r);
              }
            }
          }
        }
      }
    }
    return new Coflow(id, now, reducers, flows, weight);
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
