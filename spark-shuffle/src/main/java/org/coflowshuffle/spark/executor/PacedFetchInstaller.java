/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.apache.spark.storage.BlockManager;
import org.coflowshuffle.ratelimit.PacedBlockServer;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.spark.CoflowSparkConf;
import org.coflowshuffle.spark.DaemonThreads;
import org.coflowshuffle.spark.Messages;
import org.coflowshuffle.spark.internal.BlockClientSwap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Puts one executor on the paced transport: starts its {@link PacedBlockServer} over the shuffle
 * files it writes, tells the driver where it listens, and makes its block manager fetch remote
 * shuffle blocks through a {@link PacedShuffleClient}.
 *
 * <p>Spark has no setting for the block client an executor uses: it is swapped once, before any
 * task runs ({@link BlockClientSwap}). With the external shuffle service on, the executor serves
 * nothing itself: the coflow NodeManager service ({@code yarn-scheduler/}) serves every node's
 * files, paced, on {@code spark.coflow.shuffleService.port}; without that setting fetches stay
 * Spark's.
 */
public final class PacedFetchInstaller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PacedFetchInstaller.class);

  /** The client installed in this executor, if any: told of shuffles Spark drops. */
  private static volatile PacedShuffleClient installed;

  private final PacedBlockServer server;
  private final PacedShuffleClient client;
  private final DriverOrders orders;
  private final String executorId;

  /** Reads the interface's counters for the coordinator while links are measured; else null. */
  private final ScheduledExecutorService counting;

  private PacedFetchInstaller(
      PacedBlockServer server,
      PacedShuffleClient client,
      DriverOrders orders,
      String executorId,
      ScheduledExecutorService counting) {
    this.executorId = executorId;
    this.server = server;
    this.client = client;
    this.orders = orders;
    this.counting = counting;
  }

  /** Installs the paced transport; null (and one log line) when this executor cannot have it. */
  public static PacedFetchInstaller install(PluginContext ctx) {
    String master = ctx.conf().get("spark.master", "");
    if (master.equals("local") || master.startsWith("local[")) {
      LOG.info("coflow: local mode: every shuffle block is read in this JVM, nothing to pace");
      return null;
    }
    if (CoflowSparkConf.pushBasedShuffle(ctx.conf(), false)) {
      LOG.info("coflow: push-based shuffle is on: Spark's own transport fetches every block");
      return null;
    }
    String tls = CoflowSparkConf.unsupportedSecurity(ctx.conf());
    if (tls != null) {
      LOG.warn(
          "coflow: shuffle fetches are not paced: {} is on and the paced transport does not speak"
              + " TLS; Spark's own transport fetches every block",
          tls);
      return null;
    }
    boolean external = ctx.conf().getBoolean("spark.shuffle.service.enabled", false);
    int servicePort;
    try {
      servicePort = external ? CoflowSparkConf.shuffleServicePort(ctx.conf()) : 0;
    } catch (IllegalArgumentException e) {
      LOG.warn("coflow: shuffle fetches are not paced: bad setting {}", e.getMessage());
      return null;
    }
    String unsupported = external ? null : ShuffleBlockSource.unsupported();
    if (unsupported != null) {
      LOG.warn(
          "coflow: shuffle fetches are not paced: this Spark ({}) is not the one the plugin is built"
              + " for: {}; Spark's own transport fetches every block",
          org.apache.spark.package$.MODULE$.SPARK_VERSION(),
          unsupported);
      return null;
    }
    if (external && servicePort == 0) {
      LOG.warn(
          "coflow: shuffle fetches are not paced: the external shuffle service serves them"
              + " (set {} to the port of the coflow NodeManager service to pace them)",
          CoflowSparkConf.SHUFFLE_SERVICE_PORT.name());
      return null;
    }
    // Spark's transport settings, its authentication (the application's secret) and, with
    // spark.network.crypto.enabled or SASL encryption, its encryption.
    TransportConf transport = transportConf(ctx.conf());
    SecretKeyHolder secrets =
        ctx.conf().getBoolean("spark.authenticate", false)
            ? SparkEnv.get().securityManager()
            : null;
    // With the external shuffle service, each node's coflow service serves the files; else this
    // executor serves its own.
    PacedBlockServer server =
        external ? null : new PacedBlockServer(new ShuffleBlockSource(), transport, secrets);
    PacedFetchClient.Factory connections =
        new PacedFetchClient.Factory(transport, ctx.conf().getAppId(), secrets);
    try {
      BlockManager bm = SparkEnv.get().blockManager();
      String address = bm.blockManagerId().host();
      Nic nic = Nic.of(address);
      DriverLink.nicSpeed(
          new Messages.NicSpeed(ctx.executorID(), address, nic == null ? 0 : nic.speed()));
      BlockStoreClient spark = BlockClientSwap.current(bm);
      long early = CoflowSparkConf.prefetchSize(ctx.conf());
      PacedShuffleClient client;
      if (external) {
        client =
            new PacedShuffleClient(
                spark,
                PacedShuffleClient.nodeService(ctx.conf().getAppId(), servicePort),
                connections,
                early);
        LOG.info(
            "coflow: shuffle blocks fetched paced from each node's service on port {}",
            servicePort);
      } else {
        // The host Spark's own fetches reach this executor at (an executor's RPC environment has
        // no address of its own, so the plugin context cannot tell).
        String host = bm.blockManagerId().host();
        int port = server.start(host, 0);
        client =
            new PacedShuffleClient(spark, PacedShuffleClient.executorServers(), connections, early);
        if (!DriverLink.register(new Messages.PacedEndpoint(ctx.executorID(), host, port))) {
          LOG.warn(
              "coflow: this executor's blocks are fetched unpaced: the driver did not register it");
        }
        LOG.info(
            "coflow: paced block server on {}:{}{}",
            host,
            port,
            secrets == null ? "" : ", authenticated as Spark's transfers are");
      }
      BlockClientSwap.replace(bm, client);
      installed = client;
      DriverOrders orders = orders(ctx.executorID(), client);
      ScheduledExecutorService counting =
          CoflowSparkConf.measureLinks(ctx.conf()) ? countEverySecond(ctx.executorID(), nic) : null;
      return new PacedFetchInstaller(server, client, orders, ctx.executorID(), counting);
    } catch (Exception | LinkageError e) {
      if (server != null) {
        server.close();
      }
      connections.close();
      LOG.warn("coflow: shuffle fetches are not paced: {}", e.toString());
      return null;
    }
  }

  /**
   * Takes the driver's orders (fetch ahead of reduce tasks, ask rates now); null, with one line, if
   * it cannot.
   */
  private static DriverOrders orders(String executorId, PacedShuffleClient client) {
    try {
      DriverOrders p = DriverOrders.start(client);
      if (DriverLink.register(new Messages.OrdersEndpoint(executorId, p.register()))) {
        return p;
      }
      p.shutdown();
    } catch (RuntimeException | LinkageError e) {
      LOG.warn(
          "coflow: no orders from the driver (fetching ahead of reduce tasks, rates asked at"
              + " once): {}",
          e.toString());
    }
    return null;
  }

  /**
   * Spark's transport settings of the paced transport: the application's own (the {@code
   * spark.shuffle.io.*} and {@code spark.network.crypto.*} keys among them), on two threads each
   * way, since flows are paced far below what a thread can send.
   */
  static TransportConf transportConf(SparkConf conf) {
    Map<String, String> settings = new HashMap<>();
    for (Tuple2<String, String> kv : conf.getAll()) {
      settings.put(kv._1(), kv._2());
    }
    settings.put("spark.shuffle.io.serverThreads", "2");
    settings.put("spark.shuffle.io.clientThreads", "2");
    return new TransportConf("shuffle", new MapConfigProvider(settings));
  }

  /**
   * Tells the driver every second what the executor's interface has carried, for the coordinator's
   * measure of its machine's link; null, with one line, when the kernel does not say.
   */
  private static ScheduledExecutorService countEverySecond(String executorId, Nic nic) {
    if (nic == null || nic.counts() == null) {
      LOG.warn(
          "coflow: this executor's interface counts no bytes (loopback, or no /proc/net/dev): its"
              + " machine's link is measured from its shuffle flows alone");
      return null;
    }
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coflow-interface-counts"));
    s.scheduleAtFixedRate(
        () -> {
          long[] c = nic.datedCounts();
          if (c != null) { // else the next second's count covers this one's bytes
            DriverLink.interfaceBytes(new Messages.InterfaceBytes(executorId, c[2], c[0], c[1]));
          }
        },
        0,
        1,
        TimeUnit.SECONDS);
    return s;
  }

  /** The last total logged, so that a task that fetched nothing paced logs nothing. */
  private long logged = -1;

  /**
   * Logs how many bytes this executor has fetched paced so far, and tells the driver, when that
   * changed: after each task, so the figure is known even when the executor is killed before it
   * shuts down cleanly.
   */
  public synchronized void logPacedBytes() {
    long total = PacedShuffleClient.pacedBytes.get();
    if (total != logged) {
      logged = total;
      long early = client.prefetchedBytes();
      LOG.info(
          "coflow: {} bytes of shuffle blocks fetched paced, {} of them before their tasks asked",
          total,
          early);
      DriverLink.pacedTotal(new Messages.PacedTotal(executorId, total, early));
    }
  }

  /**
   * What the paced fetch holds in this executor, by part (see {@code PacedShuffleClient}); empty
   * when it is not installed. An executor that runs job after job sees it go back down.
   */
  public static Map<String, Integer> footprint() {
    PacedShuffleClient c = installed;
    return c == null ? Map.of() : c.footprint();
  }

  /** Spark dropped the shuffle in this JVM: what the executor side noted of it goes. */
  public static void forgetShuffle(int shuffleId) {
    PacedShuffleClient c = installed;
    if (c != null) {
      c.forget(shuffleId);
    }
    DriverLink.forget(shuffleId);
  }

  @Override
  public void close() {
    if (counting != null) {
      counting.shutdownNow();
    }
    installed = null;
    if (orders != null) {
      orders.shutdown();
    }
    logPacedBytes();
    client.stop();
    if (server != null) {
      server.close();
    }
  }
}
