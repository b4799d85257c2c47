/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.coflowshuffle.coordinator.client.RemoteCoordinator;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.CoflowSparkConf;
import org.coflowshuffle.spark.DaemonThreads;
import org.coflowshuffle.spark.Messages;
import org.coflowshuffle.spark.internal.PoolWeights;
import org.coflowshuffle.spark.internal.PreferredLocationsHook;
import org.coflowshuffle.spark.ui.CoflowsUi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator embedded in the driver: it takes the executors' size reports, and answers the
 * scheduler's placement questions through {@link PreferredLocationsHook}. If the hook cannot be
 * installed, the application runs with Spark's placement and the log says why in one line.
 */
public final class CoflowDriverPlugin implements DriverPlugin {

  private static final Logger LOG = LoggerFactory.getLogger(CoflowDriverPlugin.class);

  private static final String LINKS_LINE =
      "coflow: link estimates (MB/s in/out left for shuffles, of the link's): {}";
  private static volatile ShuffleCoordinator current;

  /** How often the log shows what each fetching stage has left and its rates. */
  static final long STATUS_SECONDS = 10;

  private final ScheduledExecutorService statusLog =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coflow-status-log"));
  private static volatile ReducerPlacer placer;

  /** Done once the placement hooks are woven, or could not be, or when there are none to weave. */
  private static volatile CompletableFuture<Void> hooks = CompletableFuture.completedFuture(null);

  /** The longest the driver's start waits for the placement hooks' weaver (see {@link #init}). */
  static final long WEAVER_WAIT_SECONDS = 3;

  /** The longest a shuffle's registration waits for the hooks. */
  static final long HOOKS_WAIT_SECONDS = 30;

  private static volatile ShuffleProgressListener progress;
  private static volatile CoflowDriverPlugin instance;
  private final Map<String, Messages.PacedEndpoint> endpoints = new ConcurrentHashMap<>();
  private final ExecutorOrders orders = new ExecutorOrders(new ReducerBlocks(endpoints));
  private final Map<String, Long> pacedTotals = new ConcurrentHashMap<>();
  private final Map<String, Long> earlyTotals = new ConcurrentHashMap<>();
  private volatile DriverMetrics metrics;

  /** Each coflow's per-machine traffic, sampled every {@link #TRAFFIC_SECONDS}. */
  private final HostTraffic traffic = new HostTraffic();

  static final long TRAFFIC_SECONDS = 1;

  /** Whether no setting gives a host's link (its NIC's is taken); null when the plugin is off. */
  private volatile Predicate<String> nicLinks;

  /** Whether links are measured below their speed ({@code spark.coflow.links.measured}). */
  private volatile boolean measureLinks;

  @Override
  public Map<String, String> init(SparkContext sc, PluginContext ctx) {
    current = null; // nothing of an earlier application in this JVM is answered for this one
    placer = null;
    hooks = CompletableFuture.completedFuture(null);
    progress = null;
    instance = this;
    CoflowSparkConf conf;
    try {
      conf = CoflowSparkConf.from(sc.getConf());
    } catch (IllegalArgumentException e) {
      LOG.warn("coflow: Spark places reducers itself: bad setting {}", e.getMessage());
      return Map.of();
    }
    if (CoflowSparkConf.pushBasedShuffle(sc.getConf(), true)) {
      LOG.warn(
          "coflow: Spark places reducers itself and fetches unpaced: push-based shuffle is on"
              + " (spark.shuffle.push.enabled), and reducers go where Spark merged their blocks");
      return Map.of();
    }
    ShuffleCoordinator coordinator = growing(sc, conf, coordinator(sc, conf));
    nicLinks =
        conf.coordinator() == null && Double.isNaN(conf.defaultBandwidth())
            ? host -> !conf.hostBandwidth().containsKey(host)
            : host -> false;
    measureLinks = conf.coordinator() == null && conf.measureLinks();
    progress =
        new ShuffleProgressListener(
            coordinator,
            CoflowDriverPlugin::registered,
            CoflowDriverPlugin::placement,
            shuffles -> {
              sampleTraffic(coordinator); // up to the stage's end
              return traffic.claim(shuffles);
            },
            executor -> {
              endpoints.remove(executor);
              orders.removed(executor);
            },
            orders::taskStarted,
            sc.master().startsWith("local-cluster"));
    sc.addSparkListener(progress);
    try {
      progress.show(CoflowsUi.attach(sc)::completed);
    } catch (RuntimeException | LinkageError e) {
      LOG.warn(
          "coflow: no Coflows tab in the Spark UI and no coflow events in the event log: {}",
          e.toString());
    }
    current = coordinator;
    statusLog.scheduleWithFixedDelay(
        () -> sampleTraffic(coordinator), TRAFFIC_SECONDS, TRAFFIC_SECONDS, TimeUnit.SECONDS);
    statusLog.scheduleWithFixedDelay(
        () -> {
          List<String> lines = coordinator.status();
          lines.forEach(line -> LOG.info("coflow: fetching {}", line));
          Map<String, double[]> links = coordinator.linkEstimates();
          if (!lines.isEmpty() && !links.isEmpty()) {
            LOG.info(LINKS_LINE, linksLine(links));
          }
        },
        STATUS_SECONDS,
        STATUS_SECONDS,
        TimeUnit.SECONDS);
    String placementKey = CoflowSparkConf.PLACEMENT.name();
    if (sc.isLocal() && !(conf.placement() && sc.getConf().contains(placementKey))) {
      if (conf.placement()) {
        LOG.info(
            "coflow: Spark places reducers itself: local mode has one executor, nothing to place"
                + " (set {}=true to place anyway)",
            placementKey);
      }
    } else if (conf.placement() || CoflowSparkConf.pacedFetch(sc.getConf())) {
      try {
        ReducerPlacer p =
            new ReducerPlacer(
                coordinator,
                new PoolWeights(sc),
                cause -> {
                  DriverMetrics m = metrics;
                  if (m != null) {
                    m.keptSpark(cause);
                  }
                },
                nanos -> {
                  DriverMetrics m = metrics;
                  if (m != null) {
                    m.decided(nanos);
                  }
                },
                progress.machines,
                orders,
                conf.placement());
        String by =
            conf.coordinator() == null
                ? "scheme " + conf.scheme()
                : "the standalone coordinator at " + conf.coordinator();
        // Weaving takes about half a second (an agent attached from another JVM) and runs beside
        // Spark's start; the first shuffle waits for it (awaitHooks), so that every shuffle is
        // placed. Spark's start waits a little too: it creates its DAG scheduler right after the
        // plugins, and that class is woven as it loads only if the weaver is registered by then
        // (rewritten once loaded, it would cost the JVM a recompilation of its code).
        hooks =
            CompletableFuture.runAsync(
                () -> weave(p, by), r -> DaemonThreads.named("coflow-hooks").newThread(r).start());
        try {
          hooks.get(WEAVER_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
          // slower than that: weaving goes on beside Spark's start (weave reports its failures)
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      } catch (RuntimeException e) {
        sparkPlaces(e);
      }
    }
    return Map.of();
  }

  private static void weave(ReducerPlacer p, String by) {
    try {
      long start = System.nanoTime();
      int rewritten = PreferredLocationsHook.install(p.stageHook(), p.rddHook(), p.taskHook());
      placer = p;
      LOG.info(
          "coflow: {} {} (hooks ready in {} ms, {})",
          p.steers() ? "reducers are placed by" : "Spark places reducers, their flows are paced by",
          by,
          (System.nanoTime() - start) / 1_000_000,
          rewritten == 0
              ? "none of Spark's classes rewritten after loading"
              : rewritten
                  + " of Spark's classes rewritten after loading, so the JVM compiles its code"
                  + " again; -javaagent:<this JAR> on the driver weaves them as they load");
    } catch (RuntimeException | LinkageError e) {
      sparkPlaces(e);
    }
  }

  private static void sparkPlaces(Throwable why) {
    LOG.warn("coflow: Spark places reducers itself: {}", why.getMessage());
  }

  /**
   * Waits until the placement hooks are woven into Spark, or could not be: called as a shuffle is
   * registered, before any of its stages can be submitted. Returns at once where the plugin does
   * not place, and after {@link #HOOKS_WAIT_SECONDS} whatever happens (the shuffle then keeps
   * Spark's placement if the hooks are not there yet, and the log says so).
   */
  public static void awaitHooks(int shuffleId) {
    if (!hooksSettled()) {
      LOG.warn(
          "coflow: shuffle {} may keep Spark's reducer placement: the placement hooks were not"
              + " woven within {} s",
          shuffleId,
          HOOKS_WAIT_SECONDS);
    }
  }

  /** Waits up to {@link #HOOKS_WAIT_SECONDS} for the weave; false if it is still running then. */
  private static boolean hooksSettled() {
    try {
      hooks.get(HOOKS_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // weave said why
    } catch (TimeoutException e) {
      return false;
    }
    return true;
  }

  /** The coordinator embedded in this driver, or the link to a standalone one. */
  private static ShuffleCoordinator coordinator(SparkContext sc, CoflowSparkConf conf) {
    ShuffleCoordinator coordinator;
    if (conf.coordinator() == null) {
      long start = System.nanoTime();
      coordinator =
          new LiveCoordinator(
              conf.scheme(),
              conf.schemeOptions(),
              conf.defaultBandwidth(),
              conf.hostBandwidth(),
              conf.measureLinks(),
              () -> (System.nanoTime() - start) / 1e9);
    } else {
      InetSocketAddress at =
          new InetSocketAddress(conf.coordinator().getHostString(), conf.coordinator().getPort());
      // Spark starts plugins before the application has its id: the link connects once it has.
      coordinator =
          new RemoteCoordinator(
              at,
              sc::applicationId,
              conf.coordinatorCredentials(),
              Duration.ofSeconds(5),
              l -> LOG.info(l),
              l -> LOG.warn(l));
    }
    // How long a placed task waits for its executor before Spark runs it elsewhere.
    SparkConf spark = sc.getConf();
    try {
      coordinator.slotWait(
          spark.getTimeAsMs("spark.locality.wait.process", spark.get("spark.locality.wait", "3s"))
              / 1000.0);
    } catch (RuntimeException e) {
      LOG.warn("coflow: placement ignores Spark's locality wait: {}", e.getMessage());
    }
    return coordinator;
  }

  /**
   * With dynamic allocation on YARN, the coordinator also sees the executors YARN could still start
   * ({@link GrowingCluster}); otherwise the running executors are all there is.
   */
  private static ShuffleCoordinator growing(
      SparkContext sc, CoflowSparkConf conf, ShuffleCoordinator coordinator) {
    SparkConf spark = sc.getConf();
    if (!conf.placement()
        || !conf.newExecutors()
        || !spark.getBoolean("spark.dynamicAllocation.enabled", false)
        || !sc.master().startsWith("yarn")) {
      return coordinator;
    }
    try {
      YarnSpareHosts spare = YarnSpareHosts.start(spark, sc.hadoopConfiguration());
      LOG.info(
          "coflow: dynamic allocation: reducers may also go to NodeManagers with room for an"
              + " executor, where Spark then asks YARN for one");
      return new GrowingCluster(
          coordinator,
          spare,
          host -> conf.hostBandwidth().getOrDefault(host, conf.defaultBandwidth()),
          spark.getInt("spark.executor.cores", 1),
          spark.getInt("spark.dynamicAllocation.maxExecutors", Integer.MAX_VALUE));
    } catch (RuntimeException | LinkageError e) {
      LOG.warn(
          "coflow: dynamic allocation: reducers are placed over running executors only: {}",
          e.toString());
      return coordinator;
    }
  }

  /**
   * Answers an executor's rate questions, after taking the progress they carry (so that a decision
   * they bring about sees it); no limit for any while no coordinator runs, nor for a question no
   * reduce task waits for ({@link ReducerTasks}; null: every question counts).
   */
  static double[] rates(ShuffleCoordinator c, Messages.RateQueries q, ReducerTasks tasks) {
    int n = q.reducers().length;
    if (q.shuffleIds().length != n || q.sources().length != n || q.delivered().length != n) {
      throw new IllegalArgumentException(
          "coflow: rate queries of unequal lengths from executor " + q.fetchingExecutor());
    }
    double[] rates = new double[n];
    if (c == null) {
      Arrays.fill(rates, Double.POSITIVE_INFINITY);
      return rates;
    }
    boolean[] counts = new boolean[n];
    for (int i = 0; i < n; i++) {
      counts[i] = counts(tasks, q.shuffleIds()[i], q.reducers()[i], q.fetchingExecutor());
      if (counts[i]) {
        c.delivered(q.shuffleIds()[i], q.reducers()[i], q.sources()[i], q.delivered()[i]);
      }
    }
    for (int i = 0; i < n; i++) {
      rates[i] =
          counts[i]
              ? c.rate(q.shuffleIds()[i], q.reducers()[i], q.sources()[i], q.fetchingExecutor())
              : Double.POSITIVE_INFINITY;
    }
    return rates;
  }

  /** Whether what {@code fetcher} says of a reducer's fetch counts ({@link ReducerTasks}). */
  private static boolean counts(ReducerTasks tasks, int shuffleId, int reducer, String fetcher) {
    return tasks == null || tasks.asks(shuffleId, reducer, fetcher);
  }

  @Override
  public Object receive(Object message) {
    ShuffleCoordinator c = current;
    ShuffleProgressListener l = progress;
    ReducerTasks tasks = l == null ? null : l.tasks;
    if (message instanceof Messages.MapOutput r) {
      if (c != null) {
        c.mapOutput(r.shuffleId(), r.mapIndex(), r.executorId(), r.bytesPerReducer());
      }
      return Boolean.TRUE;
    }
    if (message instanceof Messages.RateQueries q) {
      orders.asked(q.fetchingExecutor());
      return rates(c, q, tasks);
    }
    if (message instanceof Messages.Delivered d) {
      if (c != null && counts(tasks, d.shuffleId(), d.reducer(), d.fetchingExecutor())) {
        c.delivered(d.shuffleId(), d.reducer(), d.sourceExecutor(), d.bytes());
        orders.askRatesNow(); // a flow ended: what it leaves goes to the others now
      }
      return null; // sent one-way
    }
    if (message instanceof Messages.Unpaced u) {
      if (c != null && counts(tasks, u.shuffleId(), u.reducer(), u.fetchingExecutor())) {
        c.fetched(u.shuffleId(), u.reducer(), u.sourceExecutor());
      }
      DriverMetrics m = metrics;
      if (m != null) {
        m.fellBack(u.cause());
      }
      return null; // sent one-way
    }
    if (message instanceof Messages.PacedTotal t) {
      pacedTotals.merge(t.executorId(), t.bytes(), Math::max);
      earlyTotals.merge(t.executorId(), t.early(), Math::max);
      return null; // sent one-way
    }
    if (message instanceof Messages.NicSpeed n) {
      if (c != null) {
        c.nicSpeed(n.executorId(), n.bytesPerSecond());
      }
      if (nicLinks != null && nicLinks.test(n.host())) {
        LOG.info(
            "coflow: executor {} on {}: {}, {}",
            n.executorId(),
            n.host(),
            n.bytesPerSecond() > 0
                ? String.format(Locale.ROOT, "NIC at %.0f Mbit/s", n.bytesPerSecond() / 125e3)
                : "NIC speed unknown, 10000 Mbit/s assumed",
            measureLinks
                ? "its machine's link is measured below it"
                : "taken as its machine's link (set spark.coflow.hostBandwidth where the link is"
                    + " slower or shared)");
      }
      return null; // sent one-way
    }
    if (message instanceof Messages.InterfaceBytes b) {
      if (c != null) {
        c.interfaceBytes(b.executorId(), b.millis() / 1000.0, b.received(), b.sent());
      }
      return null; // sent one-way
    }
    if (message instanceof Messages.PacedEndpoint e) {
      endpoints.put(e.executorId(), e);
      return Boolean.TRUE;
    }
    if (message instanceof Messages.OrdersEndpoint e) {
      orders.register(e.executorId(), e.orders());
      return Boolean.TRUE;
    }
    if (message instanceof Messages.WhereIsPaced w) {
      Messages.PacedEndpoint e = endpoints.get(w.executorId());
      return e == null ? "" : e.host() + ":" + e.port();
    }
    throw new IllegalArgumentException("coflow: unknown message " + message);
  }

  private void sampleTraffic(ShuffleCoordinator coordinator) {
    try {
      traffic.sample(System.currentTimeMillis(), coordinator.hostTraffic());
      DriverMetrics m = metrics;
      if (m != null) {
        m.hosts(traffic.now().keySet());
      }
    } catch (RuntimeException e) { // one bad sampling stops neither the next nor the job
      LOG.debug("coflow: no traffic sample", e);
    }
  }

  /** Shuffle bytes the executors said they fetched paced, all together. */
  private long pacedBytes() {
    return pacedTotals.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The plugin's metrics, in Spark's metrics system ({@link DriverMetrics}). */
  @Override
  public void registerMetrics(String appId, PluginContext ctx) {
    ShuffleProgressListener l = progress;
    if (l == null) {
      return; // the plugin is off: a bad setting
    }
    DriverMetrics m =
        new DriverMetrics(ctx.metricRegistry(), l::activeCoflows, this::pacedBytes, traffic::now);
    l.measure(m);
    metrics = m;
  }

  @Override
  public void shutdown() {
    statusLog.shutdownNow();
    orders.stop();
    LOG.info(
        "coflow: {} bytes of shuffle blocks fetched paced by {} executor(s), {} of them ahead of"
            + " their reduce tasks",
        pacedBytes(),
        pacedTotals.size(),
        earlyTotals.values().stream().mapToLong(Long::longValue).sum());
    ShuffleCoordinator c = current;
    String linkUse = c == null ? "" : c.linkUse();
    if (!linkUse.isEmpty()) {
      LOG.info("coflow: the planned rates took at most {} of a host's link", linkUse);
    }
    Map<String, double[]> links = c == null ? Map.of() : c.linkEstimates();
    if (!links.isEmpty()) {
      LOG.info(LINKS_LINE, linksLine(links));
    }
    hooksSettled(); // a weave still running would install the hooks after this
    PreferredLocationsHook.uninstall();
    if (current instanceof AutoCloseable link) {
      try {
        link.close();
      } catch (Exception e) {
        LOG.debug("coflow: closing the coordinator link", e);
      }
    }
    current = null;
  }

  /**
   * E.g. {@code h1 1.14/1.18 of 1.19/1.19, h5 0.59/0.60}: per machine, MB/s in/out left for
   * shuffles, then of what links (other traffic included) where known.
   */
  static String linksLine(Map<String, double[]> links) {
    StringBuilder s = new StringBuilder();
    new java.util.TreeMap<>(links)
        .forEach(
            (m, v) -> {
              s.append(s.length() == 0 ? "" : ", ")
                  .append(String.format(Locale.ROOT, "%s %.2f/%.2f", m, v[0] / 1e6, v[1] / 1e6));
              if (v.length >= 4) {
                s.append(String.format(Locale.ROOT, " of %.2f/%.2f", v[2] / 1e6, v[3] / 1e6));
              }
            });
    return s.toString();
  }

  /** Called by the shuffle manager when Spark drops a shuffle. */
  public static void forgetShuffle(int shuffleId) {
    ShuffleCoordinator c = current;
    if (c != null) {
      c.forget(shuffleId);
    }
    ReducerPlacer p = placer;
    if (p != null) {
      p.forget(shuffleId);
    }
    CoflowDriverPlugin self = instance;
    if (self != null) {
      self.orders.forget(shuffleId);
    }
  }

  /**
   * What the plugin holds in this driver, by part: the shuffles its coordinator keeps something of,
   * the stages and shuffles the scheduler side notes, the executors whose paced servers it knows.
   * An application that runs job after job sees these go back down as Spark drops its shuffles
   * (Spark's {@code ContextCleaner}) and its executors; empty when the plugin is not running.
   */
  public static Map<String, Integer> footprint() {
    ShuffleCoordinator c = current;
    if (c == null) {
      return Map.of();
    }
    ReducerPlacer p = placer;
    ShuffleProgressListener l = progress;
    CoflowDriverPlugin self = instance;
    return Map.of(
        "coordinatorShuffles", c.shufflesHeld(),
        "placerShuffles", p == null ? 0 : p.tracked(),
        "listenerStages", l == null ? 0 : l.tracked(),
        "pacedEndpoints", self == null ? 0 : self.endpoints.size(),
        "orderEndpoints", self == null ? 0 : self.orders.size(),
        "pendingOrders", self == null ? 0 : self.orders.pending());
  }

  /**
   * The placement the embedded coordinator made for a shuffle in this driver, if any, kept after
   * Spark dropped the shuffle: for tools that compare it with where tasks really ran.
   */
  public static Optional<ShufflePlacement> placement(int shuffleId) {
    ReducerPlacer p = placer;
    return p == null || !p.steers() ? Optional.empty() : p.recent(shuffleId);
  }

  /**
   * The placement registered for a shuffle, whether its tasks went there or Spark placed them
   * ({@code spark.coflow.placement.enabled=false}): which reducers each task reads.
   */
  private static Optional<ShufflePlacement> registered(int shuffleId) {
    ReducerPlacer p = placer;
    return p == null ? Optional.empty() : p.recent(shuffleId);
  }
}
