/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.MapOutputTotals;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.PlacementUnavailable.Cause;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.Message;

/**
 * One application's view of a standalone coordinator: the driver's events go out as protocol
 * messages over one connection, placements are asked and awaited, and the rates the coordinator
 * pushes are kept for the application's fetchers to read.
 *
 * <p>It never makes the application wait on a coordinator that is gone. While disconnected,
 * placements are {@link PlacementUnavailable} (Spark places reducers itself) and every rate is
 * unlimited; it reconnects in the background and tells the coordinator again what it must know
 * (executors, and the map output of shuffles it was told about). Each outage is one line.
 *
 * <p>Map output is kept here and sent when a stage asks where its reducers go: that is when the
 * coordinator needs it (the paper places reducers after the map stage), and it is when the map and
 * reduce counts of a shuffle are known.
 *
 * <p>It is one class, longer than most, because what it keeps to tell a coordinator again after an
 * outage (executors, map output, shuffles registered, placements asked) is the same state its
 * events and questions update, and its one worker thread reconnects and replays from all of it.
 */
public final class RemoteCoordinator implements ShuffleCoordinator, AutoCloseable {

  /** How long a placement that could not be made is not asked again (Spark asks per reducer). */
  private static final long UNAVAILABLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** How long a first rate question waits for the coordinator's answer before fetching unpaced. */
  private static final long FIRST_RATE_MILLIS = 100;

  /** Seconds between pings, well inside the coordinator's default 30 s client timeout. */
  private static final long PING_SECONDS = 5;

  /** How long to wait between attempts to reach a coordinator that is gone. */
  private static final long RECONNECT_MILLIS = 3000;

  private record Refusal(String reason, long at) {}

  private final InetSocketAddress address;
  private final Supplier<String> appId;

  /** The application's id, known once it has one (Spark sets it after plugins start). */
  private volatile String app;

  private final Credentials credentials;
  private final Duration timeout;
  private final Consumer<String> info;
  private final Consumer<String> warn;
  private final Thread worker;

  private final Map<String, ExecutorSlots> executors = new ConcurrentHashMap<>();

  /** Per shuffle, its map outputs summed per executor: each guarded by itself. */
  private final Map<Integer, MapOutputTotals> outputs = new ConcurrentHashMap<>();

  /** The host of each executor that reported map output, as known when it reported. */
  private final Map<String, String> outputHosts = new ConcurrentHashMap<>();

  /** Shuffles the coordinator was told about on the current connection: id to its counts. */
  private final Map<Integer, int[]> registered = new ConcurrentHashMap<>();

  private final Map<List<Integer>, ShufflePlacement> placements = new ConcurrentHashMap<>();
  private final Map<List<Integer>, Refusal> refusals = new ConcurrentHashMap<>();
  private final Map<Long, CompletableFuture<Message.Placement>> pending = new ConcurrentHashMap<>();
  private final PushedRates rates = new PushedRates();
  private final AtomicLong requests = new AtomicLong();

  private volatile CoordinatorClient client;
  private volatile boolean closed;
  private volatile String down = "not connected yet";

  /** Whether the log already says the coordinator is away (one line per outage). */
  private volatile boolean announcedDown;

  /** Seconds the application's tasks wait for their executor, told on every (re)connection. */
  private volatile double slotWait;

  /**
   * Starts talking to the coordinator at {@code address} for an application: connects as soon as
   * {@code appId} names it (waiting at most {@code timeout}) and, whenever the connection is lost,
   * again every few seconds.
   *
   * @param appId the application's id; null until it has one (Spark sets it after plugins start)
   * @param credentials what the driver proves to the coordinator
   * @param timeout how long a connection attempt and a placement may take
   * @param info receives a line when the coordinator is reached
   * @param warn receives one line when it cannot be reached or is lost (once per outage)
   */
  public RemoteCoordinator(
      InetSocketAddress address,
      Supplier<String> appId,
      Credentials credentials,
      Duration timeout,
      Consumer<String> info,
      Consumer<String> warn) {
    this.address = address;
    this.appId = appId;
    this.credentials = credentials;
    this.timeout = timeout;
    this.info = info;
    this.warn = warn;
    if (appId.get() != null) {
      connect();
    }
    worker = new Thread(this::run, "coflow-coordinator-link");
    worker.setDaemon(true);
    worker.start();
  }

  /** Whether the coordinator is reachable now. */
  public boolean connected() {
    return client != null;
  }

  // ---- events

  @Override
  public void slotWait(double seconds) {
    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("slot wait must be >= 0 seconds: " + seconds);
    }
    slotWait = seconds;
    if (client != null) {
      send(registerApp()); // connected already: say it again
    }
  }

  private Message.RegisterApp registerApp() {
    return new Message.RegisterApp(app, slotWait > 0 ? slotWait : null);
  }

  @Override
  public void executorAdded(ExecutorSlots executor) {
    executors.put(executor.executorId(), executor);
    sendExecutors();
  }

  @Override
  public void executorRemoved(String executorId) {
    if (executors.remove(executorId) != null) {
      sendExecutors();
    }
  }

  @Override
  public void mapOutput(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer) {
    ExecutorSlots e = executors.get(executorId);
    String host = outputHosts.computeIfAbsent(executorId, x -> e == null ? x : e.host());
    MapOutputTotals totals = outputs.computeIfAbsent(shuffleId, k -> new MapOutputTotals());
    synchronized (totals) {
      totals.add(mapIndex, executorId, bytesPerReducer);
    }
    if (registered.containsKey(shuffleId)) {
      send(new Message.MapOutput(app, shuffleId, mapIndex, host, executorId, bytesPerReducer));
    }
  }

  @Override
  public void fetchFinished(int shuffleId) {
    if (registered.containsKey(shuffleId)) {
      send(new Message.ShuffleDone(app, shuffleId));
    }
    forgetRates(shuffleId);
  }

  @Override
  public void reducerDone(int shuffleId, int reducer) {
    if (registered.containsKey(shuffleId)) {
      send(new Message.ReducerDone(app, shuffleId, reducer));
    }
    rates.done(shuffleId, reducer);
  }

  @Override
  public void delivered(int shuffleId, int reducer, String source, long bytes) {
    if (bytes > 0 && registered.containsKey(shuffleId)) {
      send(new Message.Progress(app, shuffleId, reducer, source, bytes));
    }
  }

  @Override
  public void fetched(int shuffleId, int reducer, String source) {
    if (registered.containsKey(shuffleId)) {
      send(new Message.Progress(app, shuffleId, reducer, source, 0, true));
    }
  }

  @Override
  public void forget(int shuffleId) {
    if (registered.remove(shuffleId) != null) {
      send(new Message.UnregisterShuffle(app, shuffleId));
    }
    outputs.remove(shuffleId);
    placements.keySet().removeIf(k -> k.contains(shuffleId));
    refusals.keySet().removeIf(k -> k.contains(shuffleId));
    forgetRates(shuffleId);
  }

  private void forgetRates(int shuffleId) {
    rates.done(shuffleId, -1);
  }

  // ---- questions

  @Override
  public ShufflePlacement place(int shuffleId, int numMaps, int numReducers)
      throws PlacementUnavailable {
    for (Map.Entry<List<Integer>, ShufflePlacement> e : placements.entrySet()) {
      if (e.getKey().contains(shuffleId)) {
        return e.getValue();
      }
    }
    return placeTogether(new int[] {shuffleId}, new int[] {numMaps}, numReducers);
  }

  @Override
  public ShufflePlacement placeTogether(
      int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks, double weight)
      throws PlacementUnavailable {
    int numReducers = tasks.reducers();
    List<Integer> key = Arrays.stream(shuffleIds).sorted().distinct().boxed().toList();
    ShufflePlacement done = placements.get(key);
    if (done != null) {
      return done;
    }
    Refusal refused = refusals.get(key);
    if (refused != null && System.nanoTime() - refused.at() < UNAVAILABLE_NANOS) {
      throw new PlacementUnavailable(Cause.COORDINATOR, refused.reason());
    }
    CoordinatorClient c = client;
    if (c == null) {
      throw new PlacementUnavailable(
          Cause.COORDINATOR, "the coordinator at " + where() + " is unreachable: " + down);
    }
    long request = requests.incrementAndGet();
    CompletableFuture<Message.Placement> answer = new CompletableFuture<>();
    pending.put(request, answer);
    try {
      for (int i = 0; i < shuffleIds.length; i++) {
        register(c, shuffleIds[i], numMaps[i], numReducers);
      }
      c.expectPlacement(numReducers);
      c.send(
          new Message.PlacementRequest(
              app,
              request,
              shuffleIds,
              tasks.oneEach() ? null : tasks.starts(),
              weight == 1 ? null : weight));
      Message.Placement p = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (p.unavailable() != null) {
        refusals.put(key, new Refusal(p.unavailable(), System.nanoTime()));
        throw new PlacementUnavailable(Cause.COORDINATOR, p.unavailable());
      }
      List<ExecutorSlots> chosen = new ArrayList<>(p.reducers().size());
      for (Message.ReducerHost r : p.reducers()) {
        ExecutorSlots known = executors.get(r.executor());
        chosen.add(known != null ? known : new ExecutorSlots(r.executor(), r.host(), 1));
      }
      ShufflePlacement placement = new ShufflePlacement(key, p.scheme(), chosen, tasks, weight);
      placements.put(key, placement);
      return placement;
    } catch (IOException e) {
      lost(c, e.getMessage());
      throw new PlacementUnavailable(
          Cause.COORDINATOR, "the coordinator at " + where() + " is unreachable: " + down);
    } catch (TimeoutException e) {
      // A coordinator that takes this long to place one stage is stuck: start over with a new one.
      lost(c, "no placement within " + timeout.toMillis() + " ms");
      throw new PlacementUnavailable(
          Cause.COORDINATOR,
          "the coordinator at " + where() + " did not answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw new PlacementUnavailable(
          Cause.COORDINATOR, "the coordinator at " + where() + ": " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlacementUnavailable(Cause.COORDINATOR, "interrupted while asking the coordinator");
    } finally {
      pending.remove(request);
    }
  }

  /** Tells the coordinator about a shuffle and its map output, once per connection. */
  private void register(CoordinatorClient c, int shuffleId, int maps, int reducers)
      throws IOException {
    int[] counts = {maps, reducers};
    int[] known = registered.get(shuffleId);
    if (known != null && Arrays.equals(known, counts)) {
      return;
    }
    registered.put(shuffleId, counts);
    c.send(new Message.RegisterShuffle(app, shuffleId, maps, reducers));
    MapOutputTotals totals = outputs.get(shuffleId);
    if (totals == null) {
      return;
    }
    List<Message.MapOutput> summed = new ArrayList<>();
    synchronized (totals) { // one frame per executor and kind, not one per map
      for (String e : totals.executors()) {
        for (boolean sized : new boolean[] {true, false}) {
          int[] on = totals.mapsOn(e, sized);
          long[] bytes = sized ? totals.sizedBytes(e) : null;
          if (on.length > 0
              && on[on.length - 1] < maps
              && (bytes == null || bytes.length == reducers)) {
            summed.add(
                new Message.MapOutput(
                    app,
                    shuffleId,
                    on[0],
                    outputHosts.getOrDefault(e, e),
                    e,
                    bytes,
                    on.length == 1 ? null : Arrays.copyOfRange(on, 1, on.length)));
          }
        }
      }
    }
    for (Message.MapOutput m : summed) {
      c.send(m);
    }
  }

  @Override
  public double rate(int shuffleId, int reducer, String source, String fetcher) {
    CoordinatorClient c = client;
    if (c == null) { // read first: rates pushed before a loss may not be cleared yet
      return Double.POSITIVE_INFINITY;
    }
    PushedRates.Flow flow = new PushedRates.Flow(shuffleId, reducer, source);
    Double known = rates.get(flow);
    if (known != null) {
      return known;
    }
    if (!registered.containsKey(shuffleId)) {
      return Double.POSITIVE_INFINITY;
    }
    try {
      if (rates.ask(flow, fetcher)) {
        c.send(new Message.RateRequest(app, shuffleId, reducer, source, fetcher));
      }
      known = rates.await(flow, FIRST_RATE_MILLIS);
    } catch (IOException e) {
      lost(c, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return known == null ? Double.POSITIVE_INFINITY : known;
  }

  @Override
  public int shufflesHeld() {
    Set<Integer> held = new HashSet<>(outputs.keySet());
    held.addAll(registered.keySet());
    placements.keySet().forEach(held::addAll);
    refusals.keySet().forEach(held::addAll);
    return held.size();
  }

  @Override
  public List<String> status() {
    CoordinatorClient c = client;
    if (c == null) {
      return List.of("standalone coordinator at " + where() + " unreachable: " + down);
    }
    return List.of(
        "standalone coordinator at "
            + where()
            + ": "
            + placements.size()
            + " placements, "
            + rates.size()
            + " flows paced");
  }

  // ---- the connection

  private String where() {
    return address.getHostString() + ":" + address.getPort();
  }

  /** One attempt; on success the coordinator is told everything it must know again. */
  private void connect() {
    app = appId.get();
    try {
      CoordinatorClient c =
          CoordinatorClient.connect(
              address, "driver " + app, credentials.principal(), credentials.secret(), timeout);
      registered.clear();
      rates.clear();
      c.send(registerApp());
      client = c;
      announcedDown = false;
      sendExecutors();
      info.accept(
          "coflow: standalone coordinator at "
              + where()
              + " connected (scheme "
              + c.welcome().scheme()
              + ")");
    } catch (IOException | RuntimeException e) {
      noteDown(String.valueOf(e.getMessage()));
    }
  }

  private synchronized void noteDown(String why) {
    down = why;
    if (!announcedDown) {
      announcedDown = true;
      warn.accept(
          "coflow: standalone coordinator at "
              + where()
              + " unreachable, Spark places reducers and fetches unpaced until it is back: "
              + why);
    }
  }

  /** The connection failed: everything falls back until a new one is made. */
  private void lost(CoordinatorClient c, String why) {
    synchronized (this) {
      if (client != c) {
        return;
      }
      // The line first: whoever sees the link down can already read why.
      noteDown("connection lost (" + why + ")");
      client = null;
    }
    try {
      c.close();
    } catch (IOException e) {
      // already broken
    }
    registered.clear();
    rates.clear();
    pending.values().forEach(f -> f.completeExceptionally(new IOException(why)));
  }

  private void sendExecutors() {
    if (client == null) {
      return;
    }
    List<Message.ExecutorInfo> list = new ArrayList<>();
    for (ExecutorSlots e : executors.values()) {
      // The coordinator models machines; placements come back by executor id, mapped to these.
      list.add(new Message.ExecutorInfo(e.executorId(), e.machine(), e.cores()));
    }
    send(new Message.Executors(app, list));
  }

  private void send(Message m) {
    CoordinatorClient c = client;
    if (c == null) {
      return;
    }
    try {
      c.send(m);
    } catch (IOException e) {
      lost(c, e.getMessage());
    }
  }

  /** Reads what the coordinator sends, pings it, and reconnects when the connection is gone. */
  private void run() {
    long lastPing = System.nanoTime();
    long lastHeard = System.nanoTime();
    CoordinatorClient heard = null;
    while (!closed) {
      CoordinatorClient c = client;
      if (c == null) {
        if (app == null && appId.get() == null) {
          sleep(100); // the application has no id yet
          continue;
        }
        if (app != null) {
          sleep(RECONNECT_MILLIS);
        }
        if (!closed) {
          connect();
        }
        continue;
      }
      if (c != heard) { // a new connection: its silence counts from now
        heard = c;
        lastHeard = System.nanoTime();
      }
      try {
        Message m = c.receive(Duration.ofMillis(500));
        long now = System.nanoTime();
        if (m != null) {
          lastHeard = now;
        } else if (now - lastHeard > TimeUnit.SECONDS.toNanos(3 * PING_SECONDS)) {
          // Connected but silent, even to pings: as good as gone.
          lost(c, "no answer for " + 3 * PING_SECONDS + " s");
          continue;
        }
        if (m instanceof Message.Placement p) {
          CompletableFuture<Message.Placement> f = pending.get(p.request());
          if (f != null) {
            f.complete(p);
          }
        } else if (m instanceof Message.Rates r) {
          rates.accept(app, r);
        }
        if (System.nanoTime() - lastPing > TimeUnit.SECONDS.toNanos(PING_SECONDS)) {
          c.send(new Message.Ping(System.nanoTime()));
          lastPing = System.nanoTime();
        }
      } catch (IOException e) {
        if (!closed) {
          lost(c, e.getMessage());
        }
        if (e instanceof CoordinatorClient.RefusedException r
            && r.error().code() == ErrorCode.LIMIT) {
          // It would refuse again after every reconnection: this application stays with Spark.
          closed = true;
          warn.accept(
              "coflow: the standalone coordinator at "
                  + where()
                  + " holds no more for this application ("
                  + r.getMessage()
                  + "); Spark places its reducers and fetches unpaced from now on");
        }
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.interrupt();
    CoordinatorClient c = client;
    client = null;
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
