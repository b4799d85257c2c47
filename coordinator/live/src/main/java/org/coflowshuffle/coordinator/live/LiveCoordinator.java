/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.core.scheme.SizeLearning;

/**
 * The scheduling state of one cluster's shuffles, fed by live events: executors that come and go,
 * the exact bytes each map task wrote per reducer, and shuffles whose reducers finished. When a
 * shuffle's map output is complete, {@link #place} asks the configured scheme where its reducers
 * go, against the shuffles still being fetched (the paper places reducers after the map stage,
 * section III).
 *
 * <p>Each machine is one host of the model: the executors on it share its links, with the
 * configured bandwidth both ways, and its reducer slots are their cores times the waves the shuffle
 * needs, less the tasks of stages still fetching that hold those cores, so a shuffle with more
 * reducers than free cores is spread over waves instead of being refused or crowded onto busy
 * cores. A task placed on a machine goes to its executor with the most free cores; a flow between
 * two executors of one machine is read from disk and crosses no link. Every call is synchronized:
 * events arrive on the transport's threads and placements are asked on the scheduler's.
 *
 * <p>A map output may come without sizes (a shuffle that starts before they are measured). Its
 * stage is then placed as if each such flow were as large as the stage's flows of known size on
 * average ({@link #ASSUMED_FLOW_BYTES} when it has none), and its rates come from the scheme with
 * Philae's sampling in front ({@link SizeLearning}): pilot flows first, then the stage takes its
 * place among the others by what they showed. Schemes that learn sizes themselves ({@code aalo},
 * {@code philae}) get such a stage as it is, each flow of unknown size as large as it has received
 * once it ended.
 *
 * <p>The work is split by role: the registered executors and their links ({@link
 * ExecutorRegistry}), the map outputs ({@link MapOutputStore}), the stages still fetching ({@link
 * FetchingStages}), placing a stage ({@link StagePlacer}), deciding rates ({@link RateDecider}) and
 * what an operator sees ({@link StatusView}). This class is their one lock.
 */
public final class LiveCoordinator implements ShuffleCoordinator {

  private final ExecutorRegistry executors;
  private final MapOutputStore outputs = new MapOutputStore();
  private final FetchingStages fetching = new FetchingStages();
  private final StagePlacer placer;
  private final RateDecider rates;
  private final StatusView view;
  private final DoubleSupplier clock;

  /**
   * A coordinator where every machine has the same bandwidth.
   *
   * @param scheme one of {@link Schemes#names()}
   * @param options the scheme's options
   * @param bytesPerSecond bandwidth of every machine, each way, bytes per second; NaN for each
   *     machine's NIC speed ({@link #nicSpeed})
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
   * @throws IllegalArgumentException for an unknown scheme or a bandwidth that is not positive (NaN
   *     for {@code bytesPerSecond} measures it)
   */
  public LiveCoordinator(
      String scheme,
      SchemeOptions options,
      double bytesPerSecond,
      Map<String, Double> hostBytesPerSecond,
      DoubleSupplier clock) {
    this(scheme, options, bytesPerSecond, hostBytesPerSecond, false, clock);
  }

  /**
   * A coordinator that may measure what each machine's link leaves for shuffles ({@link
   * #linkEstimates}), at most its speed as configured or its NIC's.
   *
   * @param measureLinks whether to measure links below that speed, not take them at it
   */
  public LiveCoordinator(
      String scheme,
      SchemeOptions options,
      double bytesPerSecond,
      Map<String, Double> hostBytesPerSecond,
      boolean measureLinks,
      DoubleSupplier clock) {
    String name = Schemes.require(scheme);
    this.clock = clock;
    this.executors = new ExecutorRegistry(bytesPerSecond, hostBytesPerSecond, measureLinks);
    this.placer = new StagePlacer(name, options, clock, executors, outputs, fetching);
    this.rates =
        new RateDecider(
            new SizeLearning(Schemes.create(name, options)),
            clock,
            executors,
            fetching,
            placer::taskTail);
    this.view = new StatusView(executors, fetching);
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
    if (executors.otherTraffic(host, inBytesPerSecond, outBytesPerSecond, minShare)) {
      rates.markStale();
    }
    return executors.left(host);
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
    placer.slotWait(seconds);
  }

  /** An executor joined (or changed); it may now host reducers. */
  @Override
  public synchronized void executorAdded(ExecutorSlots executor) {
    if (executors.add(executor)) {
      rates.markStale();
    }
  }

  /**
   * The speed of the network interface an executor's address is on, bytes per second: where no
   * setting gives its machine's link, the most that link is taken to carry while its transfers show
   * what it does carry. Kept for an executor not registered yet.
   */
  @Override
  public synchronized void nicSpeed(String executorId, double bytesPerSecond) {
    if (executors.nicSpeed(executorId, bytesPerSecond)) {
      rates.markStale();
    }
  }

  /**
   * What the network interface an executor's address is on has carried since it came up, as the
   * executor read its counters at {@code seconds} of its machine's clock: with the bytes the
   * coordinator hears its flows deliver, it shows what the link carries and what other traffic
   * takes of it. Ignored unless links are measured, or for an executor not registered.
   */
  @Override
  public synchronized void interfaceBytes(
      String executorId, double seconds, long received, long sent) {
    if (executors.counted(executorId, seconds, received, sent, clock.getAsDouble())) {
      rates.markStale();
    }
  }

  /**
   * Per machine whose link no setting gives, or whose link is measured, the bandwidth its links
   * leave for shuffles each way (in, out), bytes per second: what they have shown they carry (the
   * NIC's speed until measured) less the other traffic they carry; what the schemes plan with. Then
   * (at 2 and 3) what they have shown they carry, other traffic included.
   */
  @Override
  public synchronized Map<String, double[]> linkEstimates() {
    return executors.measured();
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
    outputs.add(shuffleId, new int[] {mapIndex}, executorId, bytesPerReducer);
  }

  /**
   * The output of several map tasks on one executor, {@code summedBytes} their sizes per reducer
   * added up (null when not known): what a client that keeps its map outputs summed per executor
   * sends again to a coordinator that restarted. Each map index is then as if reported alone.
   *
   * @throws IllegalArgumentException when a count is negative, the ids are empty, or no map is
   *     given
   */
  public synchronized void mapOutputs(
      int shuffleId, int[] mapIndices, String executorId, long[] summedBytes) {
    outputs.add(shuffleId, mapIndices, executorId, summedBytes);
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
    ShufflePlacement done = placer.placed(shuffleId);
    if (done != null && placer.onExecutorsHere(done)) {
      return done;
    }
    return placeTogether(new int[] {shuffleId}, new int[] {numMaps}, numReducers);
  }

  /**
   * Where the tasks of a stage reading the given shuffles run: one coflow of all their flows, whose
   * reducers are the stage's tasks (a task of coalesced partitions receives what all its reducers
   * do), decided at the first call once all their map outputs are known, then the same answer until
   * one of them is {@linkplain #forget forgotten} or an executor it names leaves (then it is made
   * anew, on the executors left).
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
    int before = fetching.size();
    ShufflePlacement placement = placer.place(shuffleIds, numMaps, tasks, weight);
    if (fetching.size() != before) {
      rates.markStale(); // a new stage fetches
    }
    return placement;
  }

  /** The shuffle's reducers are done fetching: it no longer competes with later shuffles. */
  @Override
  public synchronized void fetchFinished(int shuffleId) {
    stopFetching(shuffleId);
  }

  private void stopFetching(int shuffleId) {
    FetchingCoflow c = fetching.remove(shuffleId);
    if (c != null) {
      view.stopped(c);
      rates.markStale();
    }
  }

  /** A reduce task of a stage reading the shuffle ended: its reducers no longer compete. */
  @Override
  public synchronized void reducerDone(int shuffleId, int reducer) {
    rates.reducerDone(shuffleId, reducer);
  }

  /**
   * A reducer received {@code bytes} of a shuffle from one executor (progress, so that the scheme
   * sees what is left). Unknown shuffles are ignored.
   */
  @Override
  public synchronized void delivered(int shuffleId, int reducer, String source, long bytes) {
    rates.delivered(shuffleId, reducer, source, bytes);
  }

  /**
   * A reducer has everything it fetches of a shuffle from one executor: its flows from there are
   * over (how a flow of unknown size ends). Unknown shuffles are ignored.
   */
  @Override
  public synchronized void fetched(int shuffleId, int reducer, String source) {
    rates.fetched(shuffleId, reducer, source);
  }

  /**
   * Whether something happened that the current rates do not answer yet (an arrival, a flow or
   * reducer completing, a bandwidth change), so a server should decide and push now.
   */
  public synchronized boolean decisionDue() {
    return rates.due();
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
    return rates.rate(shuffleId, reducer, source, fetcher);
  }

  /**
   * Marks a reducer as fetching, on {@code fetcher} (null if unknown), until {@link #reducerDone},
   * without deciding: what {@link #rate} does first, for a server that decides once for every
   * request it has queued (see {@link #refreshRates}). Unknown shuffles are ignored.
   */
  public synchronized void fetching(int shuffleId, int reducer, String fetcher) {
    rates.fetching(shuffleId, reducer, fetcher);
  }

  /**
   * Decides rates now if anything changed since the last decision or its wake-up time has come
   * (what {@link #rate} does before answering), so that a server can push the new rates.
   *
   * @return whether a decision was made
   */
  public synchronized boolean refreshRates() {
    return rates.refresh();
  }

  /**
   * When the current decision asked to be made again even if nothing happens (the scheme's own
   * timer, such as the starvation threshold), seconds on the clock; infinite for never.
   */
  public synchronized double wakeUpAt() {
    return rates.wakeUpAt();
  }

  /**
   * The flows one reducer fetches of a shuffle from one executor, as indices into {@link
   * #flowRates}: a handle a server keeps to read rates without looking the flow up again. Null when
   * the shuffle is not being fetched or holds nothing there for the reducer.
   */
  public synchronized int[] flowsOf(int shuffleId, int reducer, String source) {
    FetchingCoflow c = fetching.reading(shuffleId);
    return c == null ? null : c.flowsOf(shuffleId, reducer, source);
  }

  /**
   * The current rate of every flow of the stage reading this shuffle, indexed as {@link #flowsOf}
   * (a copy); null when it is not being fetched or no decision covers it (its flows go unpaced).
   */
  public synchronized double[] flowRates(int shuffleId) {
    FetchingCoflow c = fetching.reading(shuffleId);
    return c == null ? null : c.ratesCopy();
  }

  /**
   * A number that changes whenever the rates of the stage reading this shuffle change, so a server
   * pushes only what changed; -1 when it is not being fetched.
   */
  public synchronized long ratesVersion(int shuffleId) {
    FetchingCoflow c = fetching.reading(shuffleId);
    return c == null ? -1 : c.ratesVersion();
  }

  /** The shuffle is gone (unregistered): drop everything known about it. */
  @Override
  public synchronized void forget(int shuffleId) {
    stopFetching(shuffleId);
    placer.forget(shuffleId);
    outputs.forget(shuffleId);
  }

  @Override
  public synchronized int shufflesHeld() {
    Set<Integer> held = new HashSet<>(outputs.shuffles());
    placer.addShuffles(held);
    fetching.forEach((shuffles, stage) -> held.addAll(shuffles));
    return held.size();
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
    return view.lines(clock.getAsDouble());
  }

  @Override
  public synchronized String linkUse() {
    return rates.linkUse().toString();
  }

  @Override
  public synchronized double sinceFetched(int shuffleId) {
    FetchingCoflow c = fetching.reading(shuffleId);
    return c == null ? Double.NaN : c.sinceAllFetched(clock.getAsDouble());
  }

  /**
   * Per placed stage still fetching (by the shuffles it reads), per machine: the rates planned in
   * and out, bytes per second, and the bytes delivered in and out so far.
   */
  @Override
  public synchronized Map<List<Integer>, Map<String, double[]>> hostTraffic() {
    Map<List<Integer>, Map<String, double[]>> out = new LinkedHashMap<>();
    fetching.forEach(
        (shuffles, stage) -> {
          Map<String, double[]> byMachine = new TreeMap<>();
          stage.addHostTraffic(byMachine);
          out.put(shuffles, byMachine);
        });
    return out;
  }

  /** Each placed stage still fetching, for status pages and metrics. */
  public synchronized List<FetchingStatus> snapshot() {
    return view.snapshot();
  }

  /** Number of shuffles placed and still fetching. */
  public synchronized int fetchingShuffles() {
    return fetching.size();
  }
}
