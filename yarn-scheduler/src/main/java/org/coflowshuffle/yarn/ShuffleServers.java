/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.sasl.ShuffleSecretManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.shuffle.MergedShuffleFileManager;
import org.apache.spark.network.shuffle.NoOpMergedShuffleFileManager;
import org.apache.spark.network.shuffle.RemoteBlockPushResolver;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.PacedBlockServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two servers of one node's service, over one registry of executors: Spark's shuffle protocol
 * (executors register their shuffle directories there, and Spark's own client fetches unpaced,
 * which is also the plugin's fallback), and the paced block server that serves the same files at
 * the coordinator's rates. With {@code spark.authenticate} on, both authenticate each application
 * with its own secret by Spark's own bootstrap (and encrypt with {@code
 * spark.network.crypto.enabled}), and the paced server serves an application only its own blocks.
 */
final class ShuffleServers implements AutoCloseable {

  private final ExternalBlockHandler handler;
  private final TransportContext context;
  private final TransportServer spark;
  private final PacedBlockServer paced;
  private final int pacedPort;
  private final ShuffleSecretManager secrets; // null: no authentication
  private final SecretStore kept; // null: no recovery or no authentication

  private ShuffleServers(
      ExternalBlockHandler handler,
      TransportContext context,
      TransportServer spark,
      PacedBlockServer paced,
      int pacedPort,
      ShuffleSecretManager secrets,
      SecretStore kept) {
    this.handler = handler;
    this.context = context;
    this.spark = spark;
    this.paced = paced;
    this.pacedPort = pacedPort;
    this.secrets = secrets;
    this.kept = kept;
  }

  /** The executors' registrations in the recovery directory, before the backend's suffix. */
  static final String REGISTRATIONS = "registeredExecutors";

  /**
   * Spark's setting of the class that merges the blocks executors push (push-based shuffle), read
   * from {@code yarn-site.xml} as Spark's own YARN shuffle service reads it.
   */
  static final String MERGE_MANAGER = "spark.shuffle.push.server.mergedShuffleFileManagerImpl";

  static final String MERGED = "mergeManager";

  private static final Logger LOG = LoggerFactory.getLogger(ShuffleServers.class);

  /**
   * The merged-shuffle manager {@code name} stands for: Spark's {@code RemoteBlockPushResolver} (by
   * its full or simple name) merges what executors push, so that reducers read merged chunks;
   * anything else, Spark's default included, is its {@code NoOpMergedShuffleFileManager}, which
   * refuses pushes (Spark then reads the blocks as they were written). Names are matched here, not
   * loaded: this JAR carries Spark's classes under other names.
   */
  static MergedShuffleFileManager mergeManager(String name, TransportConf transport, File recovery)
      throws IOException {
    String simple = name.substring(name.lastIndexOf('.') + 1);
    if (simple.equals("RemoteBlockPushResolver")) {
      return new RemoteBlockPushResolver(transport, recovery);
    }
    if (!name.isEmpty() && !simple.equals("NoOpMergedShuffleFileManager")) {
      LOG.warn(
          "coflow: {}={} is not Spark's RemoteBlockPushResolver; pushed blocks are not merged",
          MERGE_MANAGER,
          name);
    }
    return new NoOpMergedShuffleFileManager(transport, null);
  }

  /**
   * Starts both servers on every address of this host.
   *
   * @param recovery the NodeManager's recovery directory for this service, or null when recovery is
   *     off: with one, executors' registrations and applications' secrets are kept there (Spark's
   *     database code) and read back, so a restarted NodeManager serves what it served
   * @throws Exception when a port is taken (Spark's server wraps that in a RuntimeException), or
   *     the recovery database cannot be opened; nothing stays open
   */
  static ShuffleServers start(ShuffleServiceConf c, Configuration hadoop, File recovery)
      throws Exception {
    TransportConf transport = ShuffleServiceConf.transportConf(hadoop);
    ExternalBlockHandler handler =
        new ExternalBlockHandler(
            transport,
            recovery == null ? null : new File(recovery, c.dbBackend().fileName(REGISTRATIONS)),
            mergeManager(
                hadoop.get(MERGE_MANAGER, ""),
                transport,
                recovery == null ? null : new File(recovery, c.dbBackend().fileName(MERGED))));
    TransportContext context = new TransportContext(transport, handler, true);
    ShuffleSecretManager secrets = c.authenticate() ? new ShuffleSecretManager() : null;
    SecretStore kept = null;
    TransportServer spark = null;
    PacedBlockServer paced = null;
    try {
      if (secrets != null && recovery != null) {
        kept = SecretStore.open(recovery, c.dbBackend());
        kept.load().forEach(secrets::registerApp);
      }
      spark =
          context.createServer(
              c.sparkPort(),
              secrets == null ? List.of() : List.of(new AuthServerBootstrap(transport, secrets)));
      paced =
          new PacedBlockServer(
              new ServiceBlockSource(handler.getBlockResolver()),
              ShuffleServiceConf.transportConf(hadoop, c.threads()),
              secrets);
      int port = paced.start("0.0.0.0", c.pacedPort());
      return new ShuffleServers(handler, context, spark, paced, port, secrets, kept);
    } catch (Exception e) {
      if (kept != null) {
        kept.close();
      }
      if (paced != null) {
        paced.close();
      }
      if (spark != null) {
        spark.close();
      }
      context.close();
      handler.close();
      throw e;
    }
  }

  int sparkPort() {
    return spark.getPort();
  }

  int pacedPort() {
    return pacedPort;
  }

  /** Whether both ports authenticate each application with its own secret. */
  boolean authenticates() {
    return secrets != null;
  }

  /** Lets the application that holds {@code secret} connect as {@code appId} (authenticating). */
  void applicationAdded(String appId, String secret) {
    secrets.registerApp(appId, secret);
    if (kept != null) {
      kept.put(appId, secret);
    }
  }

  /** Forgets an application's executors, and its secret; YARN deletes its directories itself. */
  void applicationRemoved(String appId) {
    if (secrets != null) {
      secrets.unregisterApp(appId);
    }
    if (kept != null) {
      kept.remove(appId);
    }
    handler.applicationRemoved(appId, false);
  }

  @Override
  public void close() {
    paced.close();
    spark.close();
    context.close();
    handler.close();
    if (kept != null) {
      try {
        kept.close();
      } catch (IOException e) {
        // closing: the database was written as it went
      }
    }
  }
}
