/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.FetchingStatus;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * The coflows of every connected application in one {@link LiveCoordinator}, so that the scheme
 * orders shuffles across applications (where SRTF pays off most), driven by protocol messages.
 *
 * <p>Names are made unique across applications before they reach the coordinator: shuffle {@code s}
 * of application {@code a} gets an id of its own, executor {@code e} becomes {@code a/e}. Executors
 * of different applications on one machine are separate hosts of the model, each with the machine's
 * link (a known approximation: they share it in reality).
 *
 * <p>Threading: not thread-safe; the server calls it from its one scheduling thread only.
 */
final class ClusterScheduler {

  private record AppShuffle(String app, int shuffle) {}

  /** One flow of a shuffle: what a reducer reads from one executor. */
  private record FlowKey(int reducer, String source) {}

  /** A rate request to answer again whenever its rate changes. */
  private static final class Subscription {
    final Peer peer;
    final String fetcher;

    /** The rate last sent; NaN for "not paced", as {@link #rateOf} gives it. */
    double sent;

    boolean answered;

    /** The coordinator's indices of this flow's parts; null until the shuffle is fetching. */
    int[] flows;

    Subscription(Peer peer, String fetcher) {
      this.peer = peer;
      this.fetcher = fetcher;
    }
  }

  private static final class App {
    final Peer owner;

    /** Seconds its tasks wait for the executor they were placed on ({@code localityWait}). */
    double slotWait;

    final Map<Integer, Message.RegisterShuffle> shuffles = new HashMap<>();
    final Map<String, String> executorHosts = new HashMap<>();

    /** Per shuffle, the executors its map outputs and rate requests named. */
    final Map<Integer, Set<String>> named = new HashMap<>();

    App(Peer owner) {
      this.owner = owner;
    }
  }

  private final CoordinatorConf conf;
  private final LiveCoordinator live;
  private final Map<String, App> apps = new LinkedHashMap<>();
  private final Map<AppShuffle, Integer> ids = new HashMap<>();
  private final Map<Integer, AppShuffle> byId = new HashMap<>();

  /**
   * Per connection, the entries of state kept for it ({@link CoordinatorConf#maxEntriesPerClient}):
   * its applications, shuffles and executors, and per shuffle a reducer count per executor named.
   */
  private final Map<Peer, Long> held = new HashMap<>();

  /** Rate requests by shuffle; only shuffles whose rates changed are looked at after a decision. */
  private final Map<AppShuffle, Subscriptions> subscriptions = new LinkedHashMap<>();

  /** A rate request whose flow the coordinator does not know yet. */
  private record Waiting(AppShuffle shuffle, FlowKey key) {}

  /** Rate requests waiting for their shuffle's placement; one per flow, the latest. */
  private final Map<Waiting, Subscription> waiting = new LinkedHashMap<>();

  /** The rate requests of one shuffle and the version of its rates last looked at. */
  private static final class Subscriptions {
    final Map<FlowKey, Subscription> flows = new LinkedHashMap<>();
    long version = Long.MIN_VALUE;
  }

  private int nextId;
  private long epoch;
  private boolean newSubscriptions;

  ClusterScheduler(CoordinatorConf conf, DoubleSupplier clock) {
    this.conf = conf;
    this.live = conf.newLiveCoordinator(clock);
  }

  /**
   * Applies one message from a client that passed its hello. A {@link Message.Ping} is answered
   * here, so its pong tells the client that everything it sent before was applied.
   *
   * @throws ProtocolException when the message does not fit the state (unknown application or
   *     shuffle, a map index out of range, a message only the server sends)
   */
  void handle(Peer from, Message m) throws ProtocolException {
    if (m instanceof Message.OfApplication a) {
      ownedBy(from, a.app());
    }
    if (m instanceof Message.Ping p) {
      from.send(new Message.Pong(p.value()));
    } else if (m instanceof Message.RegisterApp r) {
      registerApp(from, r);
    } else if (m instanceof Message.RegisterShuffle r) {
      registerShuffle(r);
    } else if (m instanceof Message.MapOutput r) {
      mapOutput(r);
    } else if (m instanceof Message.Executors r) {
      executors(r);
    } else if (m instanceof Message.PlacementRequest r) {
      from.send(place(r));
    } else if (m instanceof Message.RateRequest r) {
      subscribe(from, r);
    } else if (m instanceof Message.Progress r) {
      shuffle(r.app(), r.shuffle());
      String source = executor(r.app(), r.source());
      live.delivered(id(r.app(), r.shuffle()), r.reducer(), source, r.bytes());
      if (r.ended()) {
        live.fetched(id(r.app(), r.shuffle()), r.reducer(), source);
      }
    } else if (m instanceof Message.ReducerDone r) {
      shuffle(r.app(), r.shuffle());
      live.reducerDone(id(r.app(), r.shuffle()), r.reducer());
      Subscriptions subs = subscriptions.get(new AppShuffle(r.app(), r.shuffle()));
      if (subs != null) {
        subs.flows.keySet().removeIf(k -> k.reducer() == r.reducer());
      }
    } else if (m instanceof Message.ShuffleDone r) {
      shuffle(r.app(), r.shuffle());
      live.fetchFinished(id(r.app(), r.shuffle()));
      dropSubscriptions(r.app(), r.shuffle());
    } else if (m instanceof Message.UnregisterShuffle r) {
      App a = app(r.app());
      forget(r.app(), r.shuffle());
      a.shuffles.remove(r.shuffle());
    } else if (m instanceof Message.Bandwidth r) {
      live.otherTraffic(
          r.host(), r.inBytesPerSecond(), r.outBytesPerSecond(), conf.minAvailableFraction());
    } else {
      throw new ProtocolException(
          ErrorCode.NOT_ALLOWED, m.type() + " is sent by the coordinator, not to it");
    }
  }

  /** A connection closed: its rate requests end, and the applications it registered are dropped. */
  void disconnected(Peer peer) {
    held.remove(peer);
    subscriptions.values().forEach(subs -> subs.flows.values().removeIf(s -> s.peer == peer));
    for (Iterator<Map.Entry<String, App>> it = apps.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, App> e = it.next();
      if (e.getValue().owner == peer) {
        String app = e.getKey();
        for (int s : List.copyOf(e.getValue().shuffles.keySet())) {
          forget(app, s);
        }
        e.getValue().executorHosts.keySet().forEach(x -> live.executorRemoved(app + "/" + x));
        subscriptions.keySet().removeIf(k -> k.app().equals(app));
        it.remove();
      }
    }
  }

  /**
   * Decides again if anything changed and sends every subscribed flow whose rate differs from what
   * its client was last sent, one {@link Message.Rates} per client.
   *
   * @return the number of flow rates sent, or -1 when nothing needed deciding
   */
  int pushRates() {
    resolveWaiting();
    boolean decided = live.refreshRates();
    if (!decided && !newSubscriptions) {
      return -1;
    }
    newSubscriptions = false;
    Map<Peer, List<Message.FlowRate>> out = new LinkedHashMap<>();
    for (Map.Entry<AppShuffle, Subscriptions> e : subscriptions.entrySet()) {
      AppShuffle as = e.getKey();
      Subscriptions subs = e.getValue();
      int id = id(as.app(), as.shuffle());
      long version = live.ratesVersion(id);
      if (version == subs.version) {
        continue;
      }
      subs.version = version;
      double[] rates = live.flowRates(id);
      for (Map.Entry<FlowKey, Subscription> f : subs.flows.entrySet()) {
        FlowKey k = f.getKey();
        Subscription s = f.getValue();
        double rate = rateOf(rates, s.flows);
        if (!s.answered || changed(s.sent, rate)) {
          s.sent = rate;
          s.answered = true;
          Double paced = Double.isNaN(rate) ? null : rate;
          out.computeIfAbsent(s.peer, p -> new ArrayList<>())
              .add(new Message.FlowRate(as.app(), as.shuffle(), k.reducer(), k.source(), paced));
        }
      }
    }
    if (out.isEmpty()) {
      return 0;
    }
    epoch++;
    int sent = 0;
    for (Map.Entry<Peer, List<Message.FlowRate>> e : out.entrySet()) {
      e.getKey().send(new Message.Rates(epoch, e.getValue()));
      sent += e.getValue().size();
    }
    return sent;
  }

  /** Whether the last message calls for a decision now (not only at the next wake-up). */
  boolean decisionDue() {
    return live.decisionDue();
  }

  /**
   * Rate requests that came before their shuffle was placed: once it is, they are its flows, and
   * their reducers count as fetching in the decision about to be made.
   */
  private void resolveWaiting() {
    for (Iterator<Map.Entry<Waiting, Subscription>> it = waiting.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<Waiting, Subscription> e = it.next();
      Waiting w = e.getKey();
      if (!ids.containsKey(w.shuffle())) {
        it.remove(); // the shuffle is gone
        continue;
      }
      int id = id(w.shuffle().app(), w.shuffle().shuffle());
      int[] flows =
          live.flowsOf(id, w.key().reducer(), executor(w.shuffle().app(), w.key().source()));
      if (flows != null) {
        e.getValue().flows = flows;
        live.fetching(id, w.key().reducer(), e.getValue().fetcher);
        it.remove();
      }
    }
  }

  /** The rate of a flow made of the given parts; NaN (unpaced) when no decision covers it. */
  private static double rateOf(double[] rates, int[] parts) {
    if (rates == null || parts == null) {
      return Double.NaN;
    }
    double sum = 0;
    for (int k : parts) {
      sum += rates[k];
    }
    return sum;
  }

  /**
   * Whether a fetcher must hear of a new rate: it starts or stops being paced, starts or stops
   * waiting, or moves by more than the configured tolerance. Smaller moves are not worth a message:
   * a decision reshuffles what is left to every coflow behind the one that changed.
   */
  private boolean changed(double sent, double rate) {
    if (Double.isNaN(sent) || Double.isNaN(rate)) {
      return Double.isNaN(sent) != Double.isNaN(rate);
    }
    if (sent == 0 || rate == 0) {
      return sent != rate;
    }
    return Math.abs(rate - sent) > conf.rateTolerance() * Math.max(rate, sent);
  }

  /** When rates must be decided again though nothing happens, seconds on the clock. */
  double wakeUpAt() {
    return live.wakeUpAt();
  }

  /** What the status page shows. */
  Status status() {
    List<Status.CoflowView> coflows = new ArrayList<>();
    for (FetchingStatus f : live.snapshot()) {
      AppShuffle first = byId.get(f.shuffleIds().get(0));
      List<Integer> shuffles = f.shuffleIds().stream().map(i -> byId.get(i).shuffle()).toList();
      List<String> executors =
          f.reducerExecutors().stream().map(e -> executorOf(first.app(), e)).toList();
      coflows.add(
          new Status.CoflowView(
              first.app(),
              shuffles,
              f.arrival(),
              f.networkBytes(),
              f.remainingBytes(),
              f.bytesPerSecond(),
              f.fetchingReducers(),
              executors,
              f.weight()));
    }
    Map<String, Integer> shufflesByApp = new LinkedHashMap<>();
    apps.forEach((name, a) -> shufflesByApp.put(name, a.shuffles.size()));
    int requests = subscriptions.values().stream().mapToInt(subs -> subs.flows.size()).sum();
    return new Status(conf.scheme(), epoch, shufflesByApp, requests, coflows);
  }

  private void registerApp(Peer from, Message.RegisterApp r) throws ProtocolException {
    if (!apps.containsKey(r.app())) {
      hold(from, 1);
    }
    apps.computeIfAbsent(r.app(), a -> new App(from)).slotWait = r.localityWaitOrZero();
  }

  /**
   * Counts {@code entries} more (or fewer, when negative) against the connection's limit.
   *
   * @throws ProtocolException {@link ErrorCode#LIMIT} when it would pass the limit; nothing counted
   */
  private void hold(Peer peer, long entries) throws ProtocolException {
    long now = held.getOrDefault(peer, 0L) + entries;
    if (entries > 0 && now > conf.maxEntriesPerClient()) {
      throw new ProtocolException(
          ErrorCode.LIMIT,
          "this connection would hold "
              + now
              + " entries of state; the limit is "
              + conf.maxEntriesPerClient()
              + " ("
              + CoordinatorConf.MAX_ENTRIES_PER_CLIENT.name()
              + ")");
    }
    held.put(peer, now);
  }

  /** Notes that a message about the shuffle named an executor: its reducers' entries count. */
  private void named(App a, Message.RegisterShuffle s, String executor) throws ProtocolException {
    Set<String> named = a.named.computeIfAbsent(s.shuffle(), x -> new HashSet<>());
    if (!named.contains(executor)) {
      hold(a.owner, Math.max(1, s.reducers()));
      named.add(executor);
    }
  }

  private void registerShuffle(Message.RegisterShuffle r) throws ProtocolException {
    App a = app(r.app());
    Message.RegisterShuffle known = a.shuffles.get(r.shuffle());
    if (known != null && !known.equals(r)) {
      forget(r.app(), r.shuffle());
      a.shuffles.remove(r.shuffle());
    }
    if (!a.shuffles.containsKey(r.shuffle())) {
      hold(a.owner, 1);
    }
    a.shuffles.put(r.shuffle(), r);
    ids.computeIfAbsent(
        new AppShuffle(r.app(), r.shuffle()),
        k -> {
          byId.put(nextId, k);
          return nextId++;
        });
  }

  private void mapOutput(Message.MapOutput r) throws ProtocolException {
    Message.RegisterShuffle s = shuffle(r.app(), r.shuffle());
    int[] maps = r.maps();
    for (int m : maps) {
      if (m >= s.maps()) {
        throw new ProtocolException(
            ErrorCode.OUT_OF_ORDER,
            "map " + m + " of shuffle " + r.shuffle() + ", which has " + s.maps() + " maps");
      }
    }
    named(app(r.app()), s, r.executor());
    long[] bytes = r.bytes();
    if (bytes != null && bytes.length != s.reducers()) {
      throw new ProtocolException(
          ErrorCode.MALFORMED,
          "map output of shuffle "
              + r.shuffle()
              + " has "
              + bytes.length
              + " sizes; the shuffle has "
              + s.reducers()
              + " reducers");
    }
    live.mapOutputs(id(r.app(), r.shuffle()), maps, executor(r.app(), r.executor()), bytes);
  }

  private void executors(Message.Executors r) throws ProtocolException {
    App a = app(r.app());
    hold(a.owner, (long) r.executors().size() - a.executorHosts.size());
    for (String gone : List.copyOf(a.executorHosts.keySet())) {
      live.executorRemoved(executor(r.app(), gone));
    }
    a.executorHosts.clear();
    for (Message.ExecutorInfo e : r.executors()) {
      a.executorHosts.put(e.id(), e.host());
      live.executorAdded(new ExecutorSlots(executor(r.app(), e.id()), e.host(), e.slots()));
    }
  }

  private Message.Placement place(Message.PlacementRequest r) throws ProtocolException {
    int[] shuffles = r.shuffles();
    int[] global = new int[shuffles.length];
    int[] maps = new int[shuffles.length];
    int reducers = -1;
    for (int i = 0; i < shuffles.length; i++) {
      Message.RegisterShuffle s = shuffle(r.app(), shuffles[i]);
      if (reducers >= 0 && s.reducers() != reducers) {
        throw new ProtocolException(
            ErrorCode.MALFORMED,
            "placement of shuffles with different reducer counts: "
                + reducers
                + " and "
                + s.reducers());
      }
      reducers = s.reducers();
      global[i] = id(r.app(), shuffles[i]);
      maps[i] = s.maps();
    }
    if (Arrays.stream(maps).allMatch(m -> m == 0)) {
      return new Message.Placement(
          r.app(), r.request(), conf.scheme(), List.of(), "no map tasks, so nothing to fetch");
    }
    ReduceTaskRanges tasks;
    try {
      int[] starts = r.taskStarts();
      tasks =
          starts == null
              ? ReduceTaskRanges.oneEach(reducers)
              : ReduceTaskRanges.of(starts, reducers);
    } catch (IllegalArgumentException e) {
      throw new ProtocolException(ErrorCode.MALFORMED, "placement request: " + e.getMessage());
    }
    try {
      live.slotWait(app(r.app()).slotWait); // the wait of the application whose stage it is
      ShufflePlacement p = live.placeTogether(global, maps, tasks, r.weightOrOne());
      List<Message.ReducerHost> hosts = new ArrayList<>(reducers);
      for (ExecutorSlots e : p.executorOfReducer()) {
        String id = e.executorId();
        hosts.add(new Message.ReducerHost(executorOf(r.app(), id), e.host()));
      }
      return new Message.Placement(r.app(), r.request(), p.scheme(), hosts, null);
    } catch (PlacementUnavailable e) {
      // The coordinator names shuffles by their cluster-wide ids; say it with the application's.
      String why = e.getMessage();
      String names =
          Arrays.stream(shuffles).mapToObj(String::valueOf).collect(Collectors.joining("+"));
      String reason =
          "shuffle " + names + " of " + r.app() + ": " + why.substring(why.indexOf(": ") + 2);
      return new Message.Placement(r.app(), r.request(), conf.scheme(), List.of(), reason);
    }
  }

  private void subscribe(Peer from, Message.RateRequest r) throws ProtocolException {
    named(app(r.app()), shuffle(r.app(), r.shuffle()), r.source());
    int id = id(r.app(), r.shuffle());
    String fetcher = executor(r.app(), r.fetcher());
    String source = executor(r.app(), r.source());
    AppShuffle as = new AppShuffle(r.app(), r.shuffle());
    FlowKey key = new FlowKey(r.reducer(), r.source());
    Subscription s = new Subscription(from, fetcher);
    Subscriptions subs = subscriptions.computeIfAbsent(as, k -> new Subscriptions());
    subs.flows.put(key, s);
    subs.version = Long.MIN_VALUE;
    live.fetching(id, r.reducer(), fetcher); // decided with every other request queued
    s.flows = live.flowsOf(id, r.reducer(), source);
    if (s.flows == null && live.ratesVersion(id) < 0) {
      waiting.put(new Waiting(as, key), s); // asked before its shuffle was placed
    }
    newSubscriptions = true;
  }

  private void forget(String app, int shuffle) {
    App a = apps.get(app);
    Message.RegisterShuffle s = a == null ? null : a.shuffles.get(shuffle);
    if (s != null) {
      Set<String> named = a.named.remove(shuffle);
      long entries = 1 + (named == null ? 0 : (long) named.size() * Math.max(1, s.reducers()));
      held.computeIfPresent(a.owner, (p, n) -> n - entries);
    }
    Integer id = ids.remove(new AppShuffle(app, shuffle));
    if (id != null) {
      byId.remove(id);
      live.forget(id);
    }
    dropSubscriptions(app, shuffle);
  }

  private void dropSubscriptions(String app, int shuffle) {
    subscriptions.remove(new AppShuffle(app, shuffle));
  }

  /** Refuses a message about an application another connection registered. */
  private void ownedBy(Peer from, String app) throws ProtocolException {
    App known = apps.get(app);
    if (known != null && known.owner != from) {
      throw new ProtocolException(
          ErrorCode.NOT_ALLOWED, "application " + app + " is registered by another connection");
    }
  }

  private App app(String app) throws ProtocolException {
    App a = apps.get(app);
    if (a == null) {
      throw new ProtocolException(
          ErrorCode.OUT_OF_ORDER, "application " + app + " is not registered");
    }
    return a;
  }

  private Message.RegisterShuffle shuffle(String app, int shuffle) throws ProtocolException {
    Message.RegisterShuffle s = app(app).shuffles.get(shuffle);
    if (s == null) {
      throw new ProtocolException(
          ErrorCode.OUT_OF_ORDER,
          "shuffle " + shuffle + " of application " + app + " is not registered");
    }
    return s;
  }

  private int id(String app, int shuffle) {
    return ids.get(new AppShuffle(app, shuffle));
  }

  private static String executor(String app, String executor) {
    return app + "/" + executor;
  }

  /** The application's own name of an executor named by {@link #executor}. */
  private static String executorOf(String app, String qualified) {
    return qualified.substring(app.length() + 1);
  }
}
