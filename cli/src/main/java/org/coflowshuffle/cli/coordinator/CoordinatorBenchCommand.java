/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;

/**
 * {@code coflow bench coordinator} ({@link #OPTIONS}): drives a coordinator over loopback sockets
 * as a cluster would, and prints how fast it keeps up. The coordinator runs in this JVM unless
 * {@code --connect} names one already running (with {@code --http}, its status port): then the
 * benchmark's own threads do not compete with it for a JVM, and latency comes from its metrics.
 *
 * <p>One driver registers an application with one executor per host, {@code coflows} shuffles with
 * random map output, and asks where each shuffle's reducers go. Fetcher connections then ask the
 * rate of every flow that crosses the network, and send flow events (progress reports, each a
 * reason to decide again): first at {@code paced-rate} events per second, for {@code
 * warmup-seconds} unmeasured (a coordinator that has run a while, its code compiled, not a JVM's
 * first seconds) and then for {@code paced-seconds}, giving the decision latency a cluster at that
 * rate sees, from the coordinator's metrics (from the first event a decision answers until its
 * rates are handed to the network); then as fast as they can ({@code events}, giving events per
 * second). {@code --policy} chooses the scheme of a coordinator run here; one connected to keeps
 * its own.
 *
 * <p>{@code --direct} times the decisions alone: the same cluster and shuffles on a {@link
 * LiveCoordinator} called in this thread, no sockets, a decision after every completion, {@code
 * decisions} of them timed after half as many again unmeasured (warm-up). It says what a decision
 * costs without the network, the pushes and a busy machine around it.
 */
public final class CoordinatorBenchCommand implements Command {

  private static final String PREFIX = "coflow bench coordinator: ";
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long PING_SECONDS = 1;

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench coordinator",
              "drive the coordinator over loopback; print events/s and decision latency p50/p99")
          .value("--hosts", "100", "hosts, one executor each")
          .value("--coflows", "100", "shuffles placed one after another")
          .value("--maps", "10", "map tasks per shuffle")
          .value("--reducers", "10", "reducers per shuffle")
          .value("--fetchers", "4", "fetcher connections asking rates and sending flow events")
          .value("--events", "200000", "flow events sent as fast as they go (events per second)")
          .value("--paced-rate", "2000", "flow events per second while latency is measured")
          .value("--warmup-seconds", "10", "paced events before measuring, unmeasured")
          .value("--paced-seconds", "5", "paced events measured for latency")
          .value("--completion-every", "10", "every how many events one flow completes")
          .value("--policy", "rpc", "scheme of a coordinator run here")
          .value("--connect", "HOST:PORT", "drive a coordinator already running there")
          .value("--http", "HOST:PORT", "its status port (with --connect)")
          .flag("--direct", "time decisions alone: no sockets, a decision after every completion")
          .value("--decisions", "1000", "decisions timed with --direct")
          .flag("--json", "end with one JSON line");

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  /** A flow a fetcher asks the rate of: reducer r of shuffle s, placed on at, from source. */
  private record FlowRef(int shuffle, int reducer, String source, String at) {}

  /** One shuffle's map output: per map, its executor and its bytes for each reducer. */
  private record MapOutputs(String[] executor, long[][] bytes) {

    /** 1–100 MB per map and reducer, each map on a random one of the hosts' executors. */
    static MapOutputs draw(Setting set, Random random) {
      String[] executor = new String[set.maps()];
      long[][] bytes = new long[set.maps()][set.reducers()];
      for (int m = 0; m < executor.length; m++) {
        for (int r = 0; r < set.reducers(); r++) {
          bytes[m][r] = 1_000_000L + random.nextInt(100_000_000);
        }
        executor[m] = String.valueOf(random.nextInt(set.hosts()));
      }
      return new MapOutputs(executor, bytes);
    }

    /** Adds shuffle {@code s}'s flows that cross the network, its reducers placed on {@code at}. */
    void addFlows(List<FlowRef> flows, int s, IntFunction<String> at) {
      List<String> sources = Arrays.stream(executor).distinct().toList();
      for (int r = 0; r < bytes[0].length; r++) {
        for (String src : sources) {
          if (!src.equals(at.apply(r))) {
            flows.add(new FlowRef(s, r, src, at.apply(r)));
          }
        }
      }
    }
  }

  /** The flows' indices in a random order: the order completions finish them, each once. */
  private static Deque<Integer> completionOrder(List<FlowRef> flows, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int k = 0; k < flows.size(); k++) {
      order.add(k);
    }
    Collections.shuffle(order, random);
    return new ConcurrentLinkedDeque<>(order);
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Setting set;
    CoordinatorConf conf;
    try {
      set = Setting.parse(args);
      conf =
          CoordinatorConf.from(
              Map.of(
                  CoordinatorConf.PORT.name(), "0",
                  CoordinatorConf.HTTP_PORT.name(), "0",
                  CoordinatorConf.POLICY.name(), set.policy(),
                  CoordinatorConf.CLIENT_TIMEOUT.name(), "10min"));
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    if (set.direct()) {
      try {
        return direct(conf, set, out);
      } catch (PlacementUnavailable e) {
        err.println(PREFIX + Command.oneLine(String.valueOf(e.getMessage())));
        return FAILURE;
      }
    }
    ExecutorService threads = Executors.newFixedThreadPool(set.fetchers());
    CoordinatorServer local = null;
    try {
      local = set.connect() == null ? CoordinatorServer.start(conf) : null;
      Probe server = local != null ? new InProcess(local) : new Remote(set.connect(), set.http());
      return drive(server, set, threads, out, err);
    } catch (Exception e) {
      err.println(PREFIX + Command.oneLine(String.valueOf(e.getMessage())));
      return FAILURE;
    } finally {
      threads.shutdownNow();
      if (local != null) {
        local.close();
      }
    }
  }

  /** The command's options; {@code connect} and {@code http} are null for a coordinator here. */
  private record Setting(
      int hosts,
      int coflows,
      int maps,
      int reducers,
      int fetchers,
      int events,
      int pacedRate,
      int warmupSeconds,
      int pacedSeconds,
      int completionEvery,
      String policy,
      InetSocketAddress connect,
      InetSocketAddress http,
      boolean direct,
      int decisions,
      boolean json) {

    static Setting parse(String[] args) {
      Flags f = OPTIONS.parse(args);
      InetSocketAddress connect =
          f.has("--connect") ? address("--connect", f.string("--connect", "")) : null;
      InetSocketAddress http = f.has("--http") ? address("--http", f.string("--http", "")) : null;
      if ((connect == null) != (http == null)) {
        throw new IllegalArgumentException("--connect and --http go together");
      }
      if (connect != null && f.has("--direct")) {
        throw new IllegalArgumentException("--direct times a coordinator here, not --connect");
      }
      return new Setting(
          f.positiveInt("--hosts", 100),
          f.positiveInt("--coflows", 100),
          f.positiveInt("--maps", 10),
          f.positiveInt("--reducers", 10),
          f.positiveInt("--fetchers", 4),
          f.positiveInt("--events", 200_000),
          f.positiveInt("--paced-rate", 2000),
          f.nonNegativeInt("--warmup-seconds", 10),
          f.positiveInt("--paced-seconds", 5),
          f.positiveInt("--completion-every", 10),
          f.string("--policy", "rpc"),
          connect,
          http,
          f.has("--direct"),
          f.positiveInt("--decisions", 1000),
          f.has("--json"));
    }
  }

  private static int drive(
      Probe server, Setting set, ExecutorService threads, PrintStream out, PrintStream err)
      throws Exception {
    int hosts = set.hosts();
    int coflows = set.coflows();
    int maps = set.maps();
    int reducers = set.reducers();
    int fetchers = set.fetchers();
    int events = set.events();
    int pacedRate = set.pacedRate();
    int completionEvery = set.completionEvery();
    Random random = new Random(1);
    try (CoordinatorClient driver =
        CoordinatorClient.connect(server.address(), "bench-driver", null, WAIT)) {
      String app = "bench-" + ProcessHandle.current().pid();
      driver.send(new Message.RegisterApp(app));
      List<Message.ExecutorInfo> executors = new ArrayList<>();
      for (int h = 0; h < hosts; h++) {
        executors.add(new Message.ExecutorInfo(String.valueOf(h), "h" + h, 1));
      }
      driver.send(new Message.Executors(app, executors));

      // Arrivals: each shuffle's map output, then its placement, one after another.
      double[] placeSeconds = new double[coflows];
      List<FlowRef> flows = new ArrayList<>();
      for (int s = 0; s < coflows; s++) {
        driver.send(new Message.RegisterShuffle(app, s, maps, reducers));
        MapOutputs mo = MapOutputs.draw(set, random);
        for (int m = 0; m < maps; m++) {
          String at = mo.executor()[m];
          driver.send(new Message.MapOutput(app, s, m, "h" + at, at, mo.bytes()[m]));
        }
        long t0 = System.nanoTime();
        driver.send(new Message.PlacementRequest(app, s, new int[] {s}));
        Message.Placement p = driver.await(Message.Placement.class, WAIT);
        placeSeconds[s] = (System.nanoTime() - t0) / 1e9;
        if (p.unavailable() != null) {
          err.println(PREFIX + "no placement: " + p.unavailable());
          return FAILURE;
        }
        mo.addFlows(flows, s, r -> p.reducers().get(r).executor());
      }

      // The driver has nothing more to say while the fetchers run, and a coordinator drops a
      // client that stays silent for its timeout (30 s by default): it pings, as Spark's does.
      ScheduledExecutorService keepAlive =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "bench-driver-ping");
                t.setDaemon(true);
                return t;
              });
      keepAlive.scheduleAtFixedRate(
          () -> {
            try {
              driver.send(new Message.Ping(-1));
            } catch (IOException e) {
              // the connection is gone: the phase that needs it reports that
            }
          },
          PING_SECONDS,
          PING_SECONDS,
          TimeUnit.SECONDS);
      List<CoordinatorClient> clients = new ArrayList<>();
      try {
        for (int i = 0; i < fetchers; i++) {
          clients.add(
              CoordinatorClient.connect(server.address(), "bench-fetcher-" + i, null, WAIT));
        }
        for (int k = 0; k < flows.size(); k++) {
          FlowRef fl = flows.get(k);
          clients
              .get(k % fetchers)
              .send(new Message.RateRequest(app, fl.shuffle(), fl.reducer(), fl.source(), fl.at()));
        }
        for (CoordinatorClient c : clients) {
          barrier(c, 1);
        }

        Deque<Integer> unfinished = completionOrder(flows, random);

        // Paced first, while most flows are unfinished: the latency a cluster at this rate sees,
        // after a warm-up at the same pace that is not measured.
        pace(clients, app, flows, unfinished, random, set, set.warmupSeconds());
        for (CoordinatorClient c : clients) {
          barrier(c, 3);
        }
        long[] before = server.mark();
        int paced = pacedRate * set.pacedSeconds();
        long start = System.nanoTime();
        pace(clients, app, flows, unfinished, random, set, set.pacedSeconds());
        for (CoordinatorClient c : clients) {
          barrier(c, 4);
        }
        double pacedElapsed = (System.nanoTime() - start) / 1e9;
        Window pacedWindow = server.since(before);

        // Then open loop: every fetcher sends its share of the events as fast as it can.
        before = server.mark();
        long t0 = System.nanoTime();
        List<Future<Void>> done = new ArrayList<>();
        for (int i = 0; i < fetchers; i++) {
          CoordinatorClient c = clients.get(i);
          int share = events / fetchers;
          long seed = i;
          done.add(
              threads.submit(
                  () -> {
                    Random r = new Random(seed);
                    for (int e = 0; e < share; e++) {
                      c.send(event(app, flows, unfinished, r, e % completionEvery == 0));
                    }
                    barrier(c, 2);
                    return null;
                  }));
        }
        for (Future<Void> d : done) {
          d.get();
        }
        double openSeconds = (System.nanoTime() - t0) / 1e9;
        int sent = events / fetchers * fetchers;
        Window openWindow = server.since(before);

        Arrays.sort(placeSeconds);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("policy", driver.welcome().policy());
        r.put("hosts", hosts);
        r.put("coflows", coflows);
        r.put("flows", flows.size());
        r.put("placementP50Ms", ms(quantile(placeSeconds, 0.5)));
        r.put("placementP99Ms", ms(quantile(placeSeconds, 0.99)));
        r.put("pacedRate", pacedRate);
        r.put("pacedAchieved", Math.round(paced / pacedElapsed));
        r.put("pacedDecisions", pacedWindow.decisions());
        r.put("pacedFlowRatesPushed", pacedWindow.ratesPushed());
        r.put("pacedLatencyP50Ms", ms(pacedWindow.p50()));
        r.put("pacedLatencyP99Ms", ms(pacedWindow.p99()));
        r.put("eventsPerSecond", Math.round(sent / openSeconds));
        r.put("openDecisions", openWindow.decisions());
        r.put("openLatencyP50Ms", ms(openWindow.p50()));
        r.put("openLatencyP99Ms", ms(openWindow.p99()));
        r.put("coordinator", server.describe());
        if (set.json()) {
          out.println(new ObjectMapper().writeValueAsString(r));
        } else {
          out.printf(
              Locale.ROOT,
              "coordinator, policy %s: %d hosts, %d coflows, %d paced flows%n"
                  + "  placement: p50 %.3f ms, p99 %.3f ms%n"
                  + "  paced at %d events/s (%d achieved): %d decisions, %d flow rates pushed,"
                  + " decision latency p50 %.3f ms, p99 %.3f ms%n"
                  + "  as fast as sent: %,d events/s, %d decisions, latency p50 %.3f ms,"
                  + " p99 %.3f ms%n"
                  + "  coordinator: %s%n",
              r.values().toArray());
        }
        return 0;
      } finally {
        keepAlive.shutdownNow();
        for (CoordinatorClient c : clients) {
          c.close();
        }
      }
    }
  }

  /** HOST:PORT as an address; the flag's name in the error. */
  private static InetSocketAddress address(String flag, String value) {
    int colon = value.lastIndexOf(':');
    try {
      if (colon > 0) {
        return new InetSocketAddress(
            value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
      }
    } catch (IllegalArgumentException e) {
      // falls through to the one message below
    }
    throw new IllegalArgumentException(flag + " wants HOST:PORT, got \"" + value + "\"");
  }

  /** What the coordinator did between two marks: decisions, flow rates pushed, latency p50/p99. */
  private record Window(long decisions, long ratesPushed, double p50, double p99) {}

  /** The coordinator under test, and how its counters are read. */
  private interface Probe {
    InetSocketAddress address();

    /** Its counters now, to measure from. */
    long[] mark() throws IOException, InterruptedException;

    Window since(long[] mark) throws IOException, InterruptedException;

    String describe();
  }

  /** A coordinator in this JVM: every decision's latency, exact. */
  private record InProcess(CoordinatorServer server) implements Probe {
    @Override
    public InetSocketAddress address() {
      return server.address();
    }

    @Override
    public long[] mark() {
      return new long[] {server.decisions(), server.ratesPushed()};
    }

    @Override
    public Window since(long[] mark) {
      double[] latency = server.decisionLatenciesSince(mark[0]);
      Arrays.sort(latency);
      return new Window(
          latency.length,
          server.ratesPushed() - mark[1],
          quantile(latency, 0.5),
          quantile(latency, 0.99));
    }

    @Override
    public String describe() {
      return "in this JVM; latency from every decision";
    }
  }

  /**
   * A coordinator elsewhere (its own JVM, say pinned to its own core): its {@code /metrics}, with
   * latency quantiles from the histogram's buckets, interpolated within a bucket as Prometheus'
   * {@code histogram_quantile} does. Whether p99 is within 10 ms is exact, a bucket ending there.
   */
  private static final class Remote implements Probe {
    private static final String BUCKET = "coflow_decision_latency_seconds_bucket{le=\"";
    private final InetSocketAddress address;
    private final URI metrics;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Double> bounds = new ArrayList<>();

    Remote(InetSocketAddress address, InetSocketAddress httpAddress) {
      this.address = address;
      this.metrics =
          URI.create(
              "http://" + httpAddress.getHostString() + ":" + httpAddress.getPort() + "/metrics");
    }

    @Override
    public InetSocketAddress address() {
      return address;
    }

    /** Decisions, rates pushed, then the cumulative count of every bucket. */
    @Override
    public long[] mark() throws IOException, InterruptedException {
      String text =
          http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
              .body();
      List<Long> values = new ArrayList<>(List.of(0L, 0L));
      List<Double> les = new ArrayList<>();
      for (String line : text.split("\n")) {
        String[] kv = line.split(" ");
        if (line.startsWith("coflow_decisions_total ")) {
          values.set(0, Long.parseLong(kv[1]));
        } else if (line.startsWith("coflow_flow_rates_pushed_total ")) {
          values.set(1, Long.parseLong(kv[1]));
        } else if (line.startsWith(BUCKET)) {
          String le = line.substring(BUCKET.length(), line.indexOf('"', BUCKET.length()));
          les.add(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le));
          values.add(Long.parseLong(kv[1]));
        }
      }
      if (les.isEmpty()) {
        throw new IOException("no decision latency histogram at " + metrics);
      }
      bounds.clear();
      bounds.addAll(les);
      return values.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public Window since(long[] mark) throws IOException, InterruptedException {
      long[] now = mark();
      long[] cumulative = new long[bounds.size()];
      for (int i = 0; i < cumulative.length; i++) {
        cumulative[i] = now[2 + i] - mark[2 + i];
      }
      return new Window(
          now[0] - mark[0],
          now[1] - mark[1],
          histogramQuantile(bounds, cumulative, 0.5),
          histogramQuantile(bounds, cumulative, 0.99));
    }

    @Override
    public String describe() {
      return address.getHostString()
          + ":"
          + address.getPort()
          + "; latency from its /metrics histogram, interpolated within buckets";
    }
  }

  /**
   * The q-quantile of a histogram of cumulative counts per upper bound, linear within the bucket it
   * falls in (NaN when empty; the last finite bound when it falls in the +Inf bucket).
   */
  static double histogramQuantile(List<Double> bounds, long[] cumulative, double q) {
    long total = cumulative[cumulative.length - 1];
    if (total == 0) {
      return Double.NaN;
    }
    double rank = q * total;
    for (int i = 0; i < cumulative.length; i++) {
      if (cumulative[i] >= rank) {
        double upper = bounds.get(i);
        double lower = i == 0 ? 0 : bounds.get(i - 1);
        if (Double.isInfinite(upper)) {
          return lower;
        }
        long below = i == 0 ? 0 : cumulative[i - 1];
        return lower + (upper - lower) * (rank - below) / (cumulative[i] - below);
      }
    }
    return bounds.get(bounds.size() - 2);
  }

  /** The {@code --direct} mode: see the class comment. */
  private static int direct(CoordinatorConf conf, Setting set, PrintStream out)
      throws PlacementUnavailable {
    long t0 = System.nanoTime();
    LiveCoordinator live = conf.newLiveCoordinator(() -> (System.nanoTime() - t0) / 1e9);
    for (int h = 0; h < set.hosts(); h++) {
      live.executorAdded(new ExecutorSlots(String.valueOf(h), "h" + h, 1));
    }
    Random random = new Random(1);
    List<FlowRef> flows = new ArrayList<>();
    for (int s = 0; s < set.coflows(); s++) {
      MapOutputs mo = MapOutputs.draw(set, random);
      for (int m = 0; m < set.maps(); m++) {
        live.mapOutput(s, m, mo.executor()[m], mo.bytes()[m]);
      }
      ShufflePlacement p = live.place(s, set.maps(), set.reducers());
      int first = flows.size();
      mo.addFlows(flows, s, r -> p.executorOf(r).executorId());
      for (FlowRef f : flows.subList(first, flows.size())) {
        live.fetching(f.shuffle(), f.reducer(), f.at());
      }
    }
    live.refreshRates();
    Deque<Integer> unfinished = completionOrder(flows, random);
    int warmUp = set.decisions() / 2;
    double[] seconds = new double[set.decisions()];
    int timed = 0;
    for (int d = 0; d < warmUp + set.decisions(); d++) {
      for (int e = 1; e < set.completionEvery(); e++) {
        FlowRef f = flows.get(random.nextInt(flows.size()));
        live.delivered(f.shuffle(), f.reducer(), f.source(), 4096);
      }
      Integer next = unfinished.poll();
      if (next == null) {
        break; // every flow finished
      }
      FlowRef f = flows.get(next);
      live.delivered(f.shuffle(), f.reducer(), f.source(), Long.MAX_VALUE);
      long start = System.nanoTime();
      live.refreshRates();
      if (d >= warmUp) {
        seconds[timed++] = (System.nanoTime() - start) / 1e9;
      }
    }
    double[] sorted = Arrays.copyOf(seconds, timed);
    Arrays.sort(sorted);
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("policy", conf.policy());
    r.put("hosts", set.hosts());
    r.put("coflows", set.coflows());
    r.put("flows", flows.size());
    r.put("decisions", timed);
    r.put("decisionMeanMs", ms(Arrays.stream(sorted).average().orElse(Double.NaN)));
    r.put("decisionP50Ms", ms(quantile(sorted, 0.5)));
    r.put("decisionP99Ms", ms(quantile(sorted, 0.99)));
    if (set.json()) {
      try {
        out.println(new ObjectMapper().writeValueAsString(r));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      out.printf(
          Locale.ROOT,
          "decisions alone, policy %s: %d hosts, %d coflows, %d flows%n"
              + "  %d decisions after a warm-up: mean %.3f ms, p50 %.3f ms, p99 %.3f ms%n",
          r.values().toArray());
    }
    return 0;
  }

  /** Sends {@code set.pacedRate()} events a second for {@code seconds}, over the fetchers. */
  private static void pace(
      List<CoordinatorClient> clients,
      String app,
      List<FlowRef> flows,
      Deque<Integer> unfinished,
      Random random,
      Setting set,
      int seconds)
      throws IOException, InterruptedException {
    long interval = 1_000_000_000L / set.pacedRate();
    long start = System.nanoTime();
    for (int e = 0; e < set.pacedRate() * seconds; e++) {
      long wait = start + e * interval - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      clients
          .get(e % clients.size())
          .send(event(app, flows, unfinished, random, e % set.completionEvery() == 0));
    }
  }

  /**
   * A flow event: the completion of the next unfinished flow (all it has left), or 4 KiB of
   * progress of a random one (also when every flow is finished).
   */
  private static Message event(
      String app, List<FlowRef> flows, Deque<Integer> unfinished, Random r, boolean completion) {
    Integer next = completion ? unfinished.poll() : null;
    FlowRef fl = flows.get(next != null ? next : r.nextInt(flows.size()));
    long bytes = next != null ? Long.MAX_VALUE : 4096;
    return new Message.Progress(app, fl.shuffle(), fl.reducer(), fl.source(), bytes);
  }

  /** Waits until the server applied all this client sent (and pushed what it decided). */
  private static void barrier(CoordinatorClient c, long id) throws IOException {
    for (long ping = 2 * id; ping < 2 * id + 2; ping++) {
      c.send(new Message.Ping(ping));
      while (true) {
        Message m = c.receive(WAIT);
        if (m == null) {
          throw new IOException("no answer to a ping within " + WAIT);
        }
        if (m instanceof Message.Pong p && p.value() == ping) {
          break;
        }
      }
    }
  }

  /** Seconds as milliseconds, to the microsecond (NaN when there was nothing to measure). */
  private static double ms(double seconds) {
    return Double.isNaN(seconds) ? Double.NaN : Math.round(seconds * 1e6) / 1e3;
  }

  private static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }
}
