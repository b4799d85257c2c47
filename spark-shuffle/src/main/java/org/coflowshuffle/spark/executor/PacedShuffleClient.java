/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import com.codahale.metrics.MetricSet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.buffer.NettyManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockPushingListener;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.MergeFinalizerListener;
import org.apache.spark.network.shuffle.MergedBlocksMetaListener;
import org.apache.spark.network.shuffle.checksum.Cause;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.spark.DaemonThreads;
import org.coflowshuffle.spark.Messages;

/**
 * The executor's block client with remote shuffle fetches moved onto the paced transport: each
 * fetch of a reduce task from one executor is a flow, paced at the rate the coordinator gives it
 * and re-asked every {@value #REFRESH_MS} ms while it runs, so rates change mid-fetch. Everything
 * else, and every fetch it cannot pace (non-shuffle blocks, fetches Spark streams to disk, senders
 * without a paced server), goes to Spark's own client unchanged.
 *
 * <p>If the paced transport fails, the blocks not yet delivered are fetched by Spark's client, so
 * the task loses nothing; the log says so once per sending executor.
 */
final class PacedShuffleClient extends BlockStoreClient {

  static final long REFRESH_MS = 200;

  /** Bytes per second below which a flow counts as held. */
  static final double STALLED_RATE = 1024;

  /**
   * How long a flow may be held before it goes unpaced, by default: well past the default
   * starvation threshold (60 s), after which a waiting coflow is served whatever its size.
   */
  static final long STALL_LIMIT_SECONDS = 180;

  private final long stallLimitNanos;

  /** Shuffles whose fetches go unpaced after one of them was held too long. */
  private final Set<Integer> unpaced = ConcurrentHashMap.newKeySet();

  private final BlockStoreClient spark;
  private final Route route;
  private final PacedFetchClient.Factory connections;
  private final ScheduledExecutorService refresher =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coflow-rate-refresher"));
  private final ExecutorService starter =
      Executors.newCachedThreadPool(DaemonThreads.named("coflow-fetch-start"));
  private final Set<Flow> active = ConcurrentHashMap.newKeySet();
  private final AtomicLong flowIds = new AtomicLong();
  private final PrefetchedBlocks early;

  /** Whether a refresh the driver asked for waits to run (several asks make one refresh). */
  private final AtomicBoolean refreshQueued = new AtomicBoolean();

  /** Bytes fetched through the paced transport, for logs and tests. */
  static final AtomicLong pacedBytes = new AtomicLong();

  /** Bytes one reducer received on one flow, and how many of them the driver was told. */
  private static final class Progress {
    final AtomicLong received = new AtomicLong();
    private final AtomicLong reported = new AtomicLong();

    /** What arrived since the last call; each byte is handed out once, whoever asks. */
    long untold() {
      long now = received.get();
      return Math.max(0, now - reported.getAndAccumulate(now, Math::max));
    }
  }

  /** One fetch call in progress: its connection, its reducers and its current rate. */
  private final class Flow {
    final String id;
    final PacedFetchClient client;
    final int shuffleId;
    final Set<Integer> reducers;
    final String source;
    final Map<Integer, Progress> progress = new TreeMap<>();
    volatile double rate;

    /** The reducer it fetches ahead of its task ({@link #prefetch}), or -1 for a task's fetch. */
    final int ahead;

    /** Dropped with its reducer's early fetch: what it brings goes nowhere, and nothing is told. */
    volatile boolean dropped;

    /** Since when the flow has been held below {@link #STALLED_RATE}; 0 while it moves. */
    long stalledSince;

    Flow(
        String id,
        PacedFetchClient client,
        int shuffleId,
        Set<Integer> reducers,
        String source,
        int ahead,
        double rate) {
      this.id = id;
      this.client = client;
      this.shuffleId = shuffleId;
      this.reducers = reducers;
      this.source = source;
      this.ahead = ahead;
      reducers.forEach(r -> progress.put(r, new Progress()));
      this.rate = rate;
    }

    Question question() {
      return new Question(shuffleId, reducers, source, progress);
    }

    /** Counts a chunk of a block of reducers [first, end), shared evenly among them. */
    void received(int first, int end, long bytes) {
      int n = end - first;
      for (int r = first; r < end; r++) {
        Progress p = progress.get(r);
        if (p != null) {
          p.received.addAndGet(bytes / n + (r == first ? bytes % n : 0));
        }
      }
    }

    /** Takes the rate the driver gave now, or lets the flow go unpaced when held too long. */
    void refresh(double now) {
      long t = System.nanoTime();
      if (now >= STALLED_RATE) {
        stalledSince = 0;
      } else if (stalledSince == 0) {
        stalledSince = t;
      } else if (t - stalledSince > stallLimitNanos) {
        // A coflow with nothing moving is served once it has waited its starvation threshold; a
        // flow held this long points to a fault, and a fetch held forever would hang the job.
        DriverLink.warnOnce(
            "stalled " + shuffleId,
            "coflow: shuffle "
                + shuffleId
                + ": a fetch was held for "
                + stallLimitNanos / 1_000_000_000.0
                + " s; its flows of this shuffle go unpaced from now on");
        unpaced.add(shuffleId);
        now = Double.POSITIVE_INFINITY;
      }
      // A change of more than 1%, or to or from no limit (where the difference is not a number).
      if (Math.abs(now - rate) > 0.01 * Math.max(now, rate)
          || Double.isInfinite(now) != Double.isInfinite(rate)) {
        rate = now;
        client.setRate(id, now);
      }
    }
  }

  /**
   * A flow's question to the driver: its shuffle, reducers and source, and its progress per reducer
   * (null for a flow not started yet, which has received nothing).
   */
  private record Question(
      int shuffleId, Set<Integer> reducers, String source, Map<Integer, Progress> progress) {}

  /**
   * The current rate of each flow (the sum over its reducers), from one ask to the driver for all
   * of them: asking per flow every {@value #REFRESH_MS} ms would load the driver with as many round
   * trips as flows. The ask carries what each reducer received since the last one.
   */
  private double[] rates(List<Question> flows) {
    // Which flows are paced is read once: another thread may let a shuffle go unpaced meanwhile.
    boolean[] paced = new boolean[flows.size()];
    int n = 0;
    for (int i = 0; i < paced.length; i++) {
      paced[i] = !unpaced.contains(flows.get(i).shuffleId());
      n += paced[i] ? flows.get(i).reducers().size() : 0;
    }
    int[] shuffles = new int[n];
    int[] reducers = new int[n];
    String[] sources = new String[n];
    long[] delivered = new long[n];
    int q = 0;
    for (int i = 0; i < paced.length; i++) {
      if (!paced[i]) {
        continue;
      }
      Question f = flows.get(i);
      for (int r : f.reducers()) {
        shuffles[q] = f.shuffleId();
        reducers[q] = r;
        delivered[q] = f.progress() == null ? 0 : f.progress().get(r).untold();
        sources[q++] = f.source();
      }
    }
    double[] answers =
        n == 0 ? new double[0] : DriverLink.rates(shuffles, reducers, sources, delivered);
    double[] rates = new double[flows.size()];
    q = 0;
    for (int i = 0; i < rates.length; i++) {
      if (!paced[i]) {
        rates[i] = Double.POSITIVE_INFINITY;
        continue;
      }
      for (int k = 0; k < flows.get(i).reducers().size(); k++) {
        rates[i] += answers[q++];
      }
    }
    return rates;
  }

  /**
   * The first rates of flows about to start, asked on another thread while they connect: asked
   * after connecting, as later refreshes are, a flow would wait for both round trips in turn.
   */
  private CompletableFuture<double[]> firstRates(List<Question> flows) {
    try {
      return CompletableFuture.supplyAsync(() -> rates(flows), starter);
    } catch (RejectedExecutionException e) { // stopping
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Asks the rates of every flow now rather than at the next refresh: the driver says so when a
   * flow ended or a stage was placed, so that bandwidth one flow leaves goes to others at once.
   */
  void refreshNow() {
    if (refreshQueued.compareAndSet(false, true)) {
      try {
        refresher.execute(
            () -> {
              refreshQueued.set(false);
              refreshAll();
            });
      } catch (RejectedExecutionException e) {
        refreshQueued.set(false); // stopping
      }
    }
  }

  private void refreshAll() {
    List<Flow> flows = List.copyOf(active);
    if (!flows.isEmpty()) {
      double[] now = rates(flows.stream().map(Flow::question).toList());
      for (int i = 0; i < now.length; i++) {
        flows.get(i).refresh(now[i]);
      }
    }
  }

  /** Where the paced copy of what an executor wrote is served, and by which block names. */
  @FunctionalInterface
  interface Route {
    /**
     * The paced server for blocks Spark would fetch from {@code host:port} of {@code execId}.
     *
     * @return empty to leave the fetch to Spark
     */
    Optional<Target> of(String host, int port, String execId);
  }

  /** A paced server, and what it wants before each block id ({@code ""} for nothing). */
  record Target(String host, int port, String blockPrefix) {}

  /** Each executor serves its own blocks; the driver knows where (no server: not paced). */
  static Route executorServers() {
    return (host, port, execId) ->
        DriverLink.endpoint(execId).map(e -> new Target(e.host(), e.port(), ""));
  }

  /**
   * Each node's shuffle service serves the blocks of every executor that ran there, paced on {@code
   * pacedPort}, naming them {@link BlockSource#qualified}.
   */
  static Route nodeService(String appId, int pacedPort) {
    return (host, port, execId) ->
        Optional.of(new Target(host, pacedPort, BlockSource.qualified(appId, execId, "")));
  }

  /**
   * @param connections how it reaches paced servers, which it closes when it stops
   * @param earlyBytes how many bytes fetched ahead of their tasks it may hold ({@link #prefetch})
   */
  PacedShuffleClient(
      BlockStoreClient spark, Route route, PacedFetchClient.Factory connections, long earlyBytes) {
    this(spark, route, connections, earlyBytes, TimeUnit.SECONDS.toNanos(STALL_LIMIT_SECONDS));
  }

  PacedShuffleClient(
      BlockStoreClient spark,
      Route route,
      PacedFetchClient.Factory connections,
      long earlyBytes,
      long stallLimitNanos) {
    this.spark = spark;
    this.route = route;
    this.connections = connections;
    this.stallLimitNanos = stallLimitNanos;
    this.early =
        new PrefetchedBlocks(
            earlyBytes,
            starter,
            (h, p, e, id, to) -> spark.fetchBlocks(h, p, e, new String[] {id}, to, null));
    refresher.scheduleWithFixedDelay(
        this::refreshAll, REFRESH_MS, REFRESH_MS, TimeUnit.MILLISECONDS);
  }

  @Override
  public void fetchBlocks(
      String host,
      int port,
      String execId,
      String[] blockIds,
      BlockFetchingListener listener,
      DownloadFileManager downloadFileManager) {
    String[] rest = early.claim(blockIds, listener);
    if (rest.length > 0) {
      fetchPaced(host, port, execId, rest, listener, downloadFileManager, -1, null);
    }
  }

  /**
   * Fetches a reducer's blocks from {@code sources} ahead of its task, into what the task will
   * {@linkplain PrefetchedBlocks#claim claim}; false when they are not fetched early (see {@link
   * PrefetchedBlocks#expect}).
   */
  boolean prefetch(int shuffleId, int reducer, List<PrefetchedBlocks.Source> sources) {
    if (!early.expect(shuffleId, reducer, sources)) {
      return false;
    }
    // One ask for the reducer's flows, under way while each connects.
    CompletableFuture<double[]> first =
        firstRates(
            sources.stream()
                .map(s -> new Question(shuffleId, Set.of(reducer), s.execId(), null))
                .toList());
    for (int i = 0; i < sources.size(); i++) {
      PrefetchedBlocks.Source s = sources.get(i);
      int flow = i;
      fetchPaced(
          s.host(),
          s.port(),
          s.execId(),
          s.blockIds(),
          early.listener(shuffleId, reducer),
          null,
          reducer,
          first.thenApply(rates -> rates[flow]));
    }
    return true;
  }

  /**
   * Drops what is fetched ahead for a reducer whose task started on another executor: its flows
   * stop, with no fallback to Spark's client, and its blocks are released. Nothing happens when its
   * task asked here already.
   */
  void dropPrefetch(int shuffleId, int reducer) {
    if (early.drop(shuffleId, reducer)) {
      for (Flow f : active) {
        if (f.shuffleId == shuffleId && f.ahead == reducer) {
          drop(f);
        }
      }
    }
  }

  private void drop(Flow f) {
    f.dropped = true;
    active.remove(f);
    f.client.close(); // its fetches fail: dropped, they fall back to nothing
  }

  private void fetchPaced(
      String host,
      int port,
      String execId,
      String[] blockIds,
      BlockFetchingListener listener,
      DownloadFileManager downloadFileManager,
      int ahead,
      CompletableFuture<Double> firstRate) {
    int shuffleId = -1;
    Set<Integer> reducers = new TreeSet<>();
    for (String b : blockIds) {
      int[] parsed = parse(b);
      if (parsed == null || (shuffleId >= 0 && parsed[0] != shuffleId)) {
        shuffleId = -2;
        break;
      }
      shuffleId = parsed[0];
      for (int r = parsed[1]; r < parsed[2]; r++) {
        reducers.add(r);
      }
    }
    Target target =
        shuffleId < 0 || downloadFileManager != null
            ? null
            : route.of(host, port, execId).orElse(null);
    if (target == null) {
      spark.fetchBlocks(host, port, execId, blockIds, listener, downloadFileManager);
      return;
    }
    // Spark asks for every source in turn on the task's thread; a paced flow connects while it
    // asks the driver for its rate, so the flows start side by side rather than one by one.
    int shuffle = shuffleId;
    long startedAt = System.nanoTime();
    CompletableFuture<Double> rate =
        firstRate != null
            ? firstRate
            : firstRates(List.of(new Question(shuffle, reducers, execId, null)))
                .thenApply(rates -> rates[0]);
    try {
      starter.execute(
          () -> {
            try {
              start(
                  target, shuffle, reducers, host, port, execId, blockIds, listener, ahead, rate,
                  startedAt);
            } catch (RuntimeException e) {
              // the flow could not start
              fallBack("start", shuffle, reducers, execId, e, host, port, blockIds, listener);
            }
          });
    } catch (RejectedExecutionException e) {
      fallBack("start", shuffle, reducers, execId, e, host, port, blockIds, listener); // stopping
    }
  }

  private void start(
      Target target,
      int shuffleId,
      Set<Integer> reducers,
      String host,
      int port,
      String execId,
      String[] blockIds,
      BlockFetchingListener listener,
      int ahead,
      CompletableFuture<Double> firstRate,
      long startedAt) {
    PacedFetchClient client;
    try {
      client = connections.connect(target.host(), target.port());
    } catch (IOException e) {
      fallBack("connect", shuffleId, reducers, execId, e, host, port, blockIds, listener);
      return;
    }
    double rate;
    try {
      rate = firstRate.join();
    } catch (CompletionException | CancellationException e) { // stopping
      client.close();
      throw e;
    }
    String flowId = shuffleId + "/" + reducers + "/" + execId + "/" + flowIds.incrementAndGet();
    Flow flow = new Flow(flowId, client, shuffleId, reducers, execId, ahead, rate);
    active.add(flow);
    if (ahead >= 0 && !early.expects(shuffleId, ahead)) {
      drop(flow); // dropped while it connected
      return;
    }
    Set<String> left = ConcurrentHashMap.newKeySet();
    left.addAll(List.of(blockIds));
    AtomicBoolean failed = new AtomicBoolean();
    // Whether its start is timed already, or never: a flow held at first would time its wait.
    AtomicBoolean startTimed = new AtomicBoolean(rate < STALLED_RATE);
    AtomicLong bytes = new AtomicLong();
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (String blockId : blockIds) {
      ByteBuf buf = Unpooled.buffer();
      int[] range = parse(blockId);
      all.add(
          client
              .fetch(
                  flowId,
                  target.blockPrefix() + blockId,
                  flow.rate,
                  chunk -> {
                    if (!startTimed.get() && startTimed.compareAndSet(false, true)) {
                      ExecutorMetrics.flowStarted(System.nanoTime() - startedAt);
                    }
                    flow.received(range[1], range[2], chunk.readableBytes());
                    buf.writeBytes(chunk);
                  })
              .whenComplete(
                  (size, error) -> {
                    if (flow.dropped) {
                      buf.release();
                    } else if (error == null && !failed.get() && left.remove(blockId)) {
                      bytes.addAndGet(size);
                      ManagedBuffer managed = new NettyManagedBuffer(buf);
                      try {
                        listener.onBlockFetchSuccess(blockId, managed);
                      } finally {
                        buf.release();
                      }
                    } else {
                      buf.release();
                      if (error != null && failed.compareAndSet(false, true)) {
                        String[] rest = left.toArray(new String[0]);
                        left.clear();
                        fallBack(
                            "fetch", shuffleId, reducers, execId, error, host, port, rest,
                            listener);
                      }
                    }
                  }));
    }
    int finalShuffle = shuffleId;
    CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0]))
        .whenComplete(
            (v, e) -> {
              active.remove(flow);
              client.close();
              pacedBytes.addAndGet(bytes.get());
              if (flow.dropped) {
                return; // the reducer's task fetches on another executor, which reports
              }
              flow.progress.forEach(
                  (r, p) -> {
                    // also with nothing untold: the driver hands what the flow leaves to others
                    DriverLink.delivered(finalShuffle, r, execId, p.untold());
                  });
            });
  }

  /**
   * Hands the blocks to Spark's own client, and tells the driver the flow left the paced transport
   * and why ({@link Messages.Unpaced#cause}): a flow the coordinator still counted as fetching
   * would hold back the flows it paces against it.
   */
  private void fallBack(
      String cause,
      int shuffleId,
      Set<Integer> reducers,
      String execId,
      Throwable why,
      String host,
      int port,
      String[] blockIds,
      BlockFetchingListener listener) {
    DriverLink.warnOnce(
        "fallback " + execId,
        "coflow: paced fetch from executor "
            + execId
            + " failed ("
            + why.getMessage()
            + "); Spark's transport fetches its blocks");
    if (blockIds.length > 0) {
      spark.fetchBlocks(host, port, execId, blockIds, listener, null);
    }
    for (int r : reducers) {
      DriverLink.unpaced(shuffleId, r, execId, cause);
    }
  }

  /** {shuffleId, first reducer, end reducer} of a shuffle block id, or null for other blocks. */
  static int[] parse(String blockId) {
    if (!blockId.startsWith("shuffle_")) {
      return null;
    }
    String[] p = blockId.split("_");
    try {
      if (p.length == 4) {
        int r = Integer.parseInt(p[3]);
        return new int[] {Integer.parseInt(p[1]), r, r + 1};
      }
      if (p.length == 5) {
        return new int[] {Integer.parseInt(p[1]), Integer.parseInt(p[3]), Integer.parseInt(p[4])};
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return null;
  }

  // Everything else is Spark's.

  @Override
  public Cause diagnoseCorruption(
      String host,
      int port,
      String execId,
      int shuffleId,
      long mapId,
      int reduceId,
      long checksum,
      String algorithm) {
    return spark.diagnoseCorruption(
        host, port, execId, shuffleId, mapId, reduceId, checksum, algorithm);
  }

  @Override
  public MetricSet shuffleMetrics() {
    return spark.shuffleMetrics();
  }

  @Override
  public void setAppAttemptId(String appAttemptId) {
    spark.setAppAttemptId(appAttemptId);
  }

  @Override
  public String getAppAttemptId() {
    return spark.getAppAttemptId();
  }

  @Override
  public void getHostLocalDirs(
      String host,
      int port,
      String[] execIds,
      CompletableFuture<Map<String, String[]>> hostLocalDirsCompletable) {
    spark.getHostLocalDirs(host, port, execIds, hostLocalDirsCompletable);
  }

  @Override
  public void pushBlocks(
      String host,
      int port,
      String[] blockIds,
      ManagedBuffer[] buffers,
      BlockPushingListener listener) {
    spark.pushBlocks(host, port, blockIds, buffers, listener);
  }

  @Override
  public void finalizeShuffleMerge(
      String host, int port, int shuffleId, int shuffleMergeId, MergeFinalizerListener listener) {
    spark.finalizeShuffleMerge(host, port, shuffleId, shuffleMergeId, listener);
  }

  @Override
  public void getMergedBlockMeta(
      String host,
      int port,
      int shuffleId,
      int shuffleMergeId,
      int reduceId,
      MergedBlocksMetaListener listener) {
    spark.getMergedBlockMeta(host, port, shuffleId, shuffleMergeId, reduceId, listener);
  }

  @Override
  public boolean removeShuffleMerge(String host, int port, int shuffleId, int shuffleMergeId) {
    return spark.removeShuffleMerge(host, port, shuffleId, shuffleMergeId);
  }

  /** Spark dropped the shuffle: its fetches are over, and so is what was noted of it. */
  void forget(int shuffleId) {
    unpaced.remove(shuffleId);
    early.forget(shuffleId);
  }

  /** Bytes of shuffle blocks fetched ahead of their tasks since the executor started. */
  long prefetchedBytes() {
    return early.prefetched();
  }

  /**
   * What this client holds now, by part: shuffles noted as going unpaced, flows fetching, paced
   * connections open.
   */
  Map<String, Integer> footprint() {
    return Map.of(
        "unpacedShuffles", unpaced.size(),
        "activeFlows", active.size(),
        "prefetchedReducers", early.reducers(),
        "pacedConnections", connections.openConnections());
  }

  /** Stops this client's threads; Spark's own client is closed by Spark. */
  void stop() {
    starter.shutdownNow();
    refresher.shutdownNow();
    connections.close();
  }

  @Override
  public void close() throws IOException {
    stop();
    spark.close();
  }
}
