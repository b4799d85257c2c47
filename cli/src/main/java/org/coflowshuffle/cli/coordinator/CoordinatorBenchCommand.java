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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
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
 * random map output, and asks where each shuffle's reducers go. It then asks the rate of every flow
 * that crosses the network and, from {@code fetchers} threads over its connection (the coordinator
 * takes messages about an application from the connection that registered it only), sends flow
 * events (progress reports, each a reason to decide again): first at {@code paced-rate} events per
 * second, for {@code warmup-seconds} unmeasured (a coordinator that has run a while, its code
 * compiled, not a JVM's first seconds) and then for {@code paced-seconds}, giving the decision
 * latency a cluster at that rate sees, from the coordinator's metrics (from the first event a
 * decision answers until its rates are handed to the network); then as fast as they can ({@code
 * events}, giving events per second). {@code --scheme} chooses the scheme of a coordinator run
 * here; one connected to keeps its own.
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
          .value("--fetchers", "4", "threads sending flow events over the driver's connection")
          .value("--events", "200000", "flow events sent as fast as they go (events per second)")
          .value("--paced-rate", "2000", "flow events per second while latency is measured")
          .value("--warmup-seconds", "10", "paced events before measuring, unmeasured")
          .value("--paced-seconds", "5", "paced events measured for latency")
          .value("--completion-every", "10", "every how many events one flow completes")
          .value("--scheme", "rpc", "scheme of a coordinator run here")
          .value("--connect", "HOST:PORT", "drive a coordinator already running there")
          .value("--http", "HOST:PORT", "its status port (with --connect)")
          .flag("--direct", "time decisions alone: no sockets, a decision after every completion")
          .value("--decisions", "1000", "decisions timed with --direct")
          .flag("--json", "end with one JSON line");

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    BenchSetting set;
    CoordinatorConf conf;
    try {
      set = BenchSetting.parse(OPTIONS.parse(args));
      conf =
          CoordinatorConf.from(
              Map.of(
                  CoordinatorConf.PORT.name(), "0",
                  CoordinatorConf.HTTP_PORT.name(), "0",
                  CoordinatorConf.SCHEME.name(), set.scheme(),
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
      CoordinatorProbe server =
          local != null
              ? new CoordinatorProbe.InProcess(local)
              : new CoordinatorProbe.Remote(set.connect(), set.http());
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

  private static int drive(
      CoordinatorProbe server,
      BenchSetting set,
      ExecutorService threads,
      PrintStream out,
      PrintStream err)
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
      List<BenchLoad.FlowRef> flows = new ArrayList<>();
      for (int s = 0; s < coflows; s++) {
        driver.send(new Message.RegisterShuffle(app, s, maps, reducers));
        BenchLoad.MapOutputs mo = BenchLoad.MapOutputs.draw(set, random);
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

      // A coordinator drops a client that stays silent for its timeout (30 s by default), and a
      // slow phase may leave the connection quiet that long: it pings, as Spark's driver does.
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
      try {
        for (BenchLoad.FlowRef fl : flows) {
          driver.send(
              new Message.RateRequest(app, fl.shuffle(), fl.reducer(), fl.source(), fl.at()));
        }
        barrier(driver, 1);

        Deque<Integer> unfinished = BenchLoad.completionOrder(flows, random);

        // Paced first, while most flows are unfinished: the latency a cluster at this rate sees,
        // after a warm-up at the same pace that is not measured.
        pace(driver, app, flows, unfinished, random, set, set.warmupSeconds());
        barrier(driver, 3);
        long[] before = server.mark();
        int paced = pacedRate * set.pacedSeconds();
        long start = System.nanoTime();
        pace(driver, app, flows, unfinished, random, set, set.pacedSeconds());
        barrier(driver, 4);
        double pacedElapsed = (System.nanoTime() - start) / 1e9;
        CoordinatorProbe.Window pacedWindow = server.since(before);

        // Then open loop: every thread sends its share of the events as fast as it can.
        before = server.mark();
        long t0 = System.nanoTime();
        List<Future<Void>> done = new ArrayList<>();
        for (int i = 0; i < fetchers; i++) {
          int share = events / fetchers;
          long seed = i;
          done.add(
              threads.submit(
                  () -> {
                    Random r = new Random(seed);
                    for (int e = 0; e < share; e++) {
                      driver.send(
                          BenchLoad.event(app, flows, unfinished, r, e % completionEvery == 0));
                    }
                    return null;
                  }));
        }
        for (Future<Void> d : done) {
          d.get();
        }
        barrier(driver, 2);
        double openSeconds = (System.nanoTime() - t0) / 1e9;
        int sent = events / fetchers * fetchers;
        CoordinatorProbe.Window openWindow = server.since(before);

        Arrays.sort(placeSeconds);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("scheme", driver.welcome().scheme());
        r.put("hosts", hosts);
        r.put("coflows", coflows);
        r.put("flows", flows.size());
        r.put("placementP50Ms", ms(CoordinatorProbe.quantile(placeSeconds, 0.5)));
        r.put("placementP99Ms", ms(CoordinatorProbe.quantile(placeSeconds, 0.99)));
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
              "coordinator, scheme %s: %d hosts, %d coflows, %d paced flows%n"
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
      }
    }
  }

  /** The {@code --direct} mode: see the class comment. */
  private static int direct(CoordinatorConf conf, BenchSetting set, PrintStream out)
      throws PlacementUnavailable {
    long t0 = System.nanoTime();
    LiveCoordinator live = conf.newLiveCoordinator(() -> (System.nanoTime() - t0) / 1e9);
    for (int h = 0; h < set.hosts(); h++) {
      live.executorAdded(new ExecutorSlots(String.valueOf(h), "h" + h, 1));
    }
    Random random = new Random(1);
    List<BenchLoad.FlowRef> flows = new ArrayList<>();
    for (int s = 0; s < set.coflows(); s++) {
      BenchLoad.MapOutputs mo = BenchLoad.MapOutputs.draw(set, random);
      for (int m = 0; m < set.maps(); m++) {
        live.mapOutput(s, m, mo.executor()[m], mo.bytes()[m]);
      }
      ShufflePlacement p = live.place(s, set.maps(), set.reducers());
      int first = flows.size();
      mo.addFlows(flows, s, r -> p.executorOf(r).executorId());
      for (BenchLoad.FlowRef f : flows.subList(first, flows.size())) {
        live.fetching(f.shuffle(), f.reducer(), f.at());
      }
    }
    live.refreshRates();
    Deque<Integer> unfinished = BenchLoad.completionOrder(flows, random);
    int warmUp = set.decisions() / 2;
    double[] seconds = new double[set.decisions()];
    int timed = 0;
    for (int d = 0; d < warmUp + set.decisions(); d++) {
      for (int e = 1; e < set.completionEvery(); e++) {
        BenchLoad.FlowRef f = flows.get(random.nextInt(flows.size()));
        live.delivered(f.shuffle(), f.reducer(), f.source(), 4096);
      }
      Integer next = unfinished.poll();
      if (next == null) {
        break; // every flow finished
      }
      BenchLoad.FlowRef f = flows.get(next);
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
    r.put("scheme", conf.scheme());
    r.put("hosts", set.hosts());
    r.put("coflows", set.coflows());
    r.put("flows", flows.size());
    r.put("decisions", timed);
    r.put("decisionMeanMs", ms(Arrays.stream(sorted).average().orElse(Double.NaN)));
    r.put("decisionP50Ms", ms(CoordinatorProbe.quantile(sorted, 0.5)));
    r.put("decisionP99Ms", ms(CoordinatorProbe.quantile(sorted, 0.99)));
    if (set.json()) {
      try {
        out.println(new ObjectMapper().writeValueAsString(r));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      out.printf(
          Locale.ROOT,
          "decisions alone, scheme %s: %d hosts, %d coflows, %d flows%n"
              + "  %d decisions after a warm-up: mean %.3f ms, p50 %.3f ms, p99 %.3f ms%n",
          r.values().toArray());
    }
    return 0;
  }

  /** Sends {@code set.pacedRate()} events a second for {@code seconds}. */
  private static void pace(
      CoordinatorClient driver,
      String app,
      List<BenchLoad.FlowRef> flows,
      Deque<Integer> unfinished,
      Random random,
      BenchSetting set,
      int seconds)
      throws IOException, InterruptedException {
    long interval = 1_000_000_000L / set.pacedRate();
    long start = System.nanoTime();
    for (int e = 0; e < set.pacedRate() * seconds; e++) {
      long wait = start + e * interval - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      driver.send(BenchLoad.event(app, flows, unfinished, random, e % set.completionEvery() == 0));
    }
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
}
