/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.PacedBlockServer;

/**
 * The two servers of one node's service, over one registry of executors: Spark's shuffle protocol
 * (executors register their shuffle directories there, and Spark's own client fetches unpaced,
 * which is also the plugin's fallback), and the paced block server that serves the same files at
 * the coordinator's rates.
 */
final class ShuffleServers implements AutoCloseable {

  private final ExternalBlockHandler handler;
  private final TransportContext context;
  private final TransportServer spark;
  private final PacedBlockServer paced;
  private final int pacedPort;

  private ShuffleServers(
      ExternalBlockHandler handler,
      TransportContext context,
      TransportServer spark,
      PacedBlockServer paced,
      int pacedPort) {
    this.handler = handler;
    this.context = context;
    this.spark = spark;
    this.paced = paced;
    this.pacedPort = pacedPort;
  }

  /**
   * Starts both servers on every address of this host.
   *
   * @throws Exception when a port is taken (Spark's server wraps that in a RuntimeException);
   *     nothing stays open
   */
  static ShuffleServers start(ShuffleServiceConf c, Configuration hadoop) throws Exception {
    TransportConf transport = ShuffleServiceConf.transportConf(hadoop);
    // No recovery file: executors register again when a NodeManager restarts.
    ExternalBlockHandler handler = new ExternalBlockHandler(transport, null);
    TransportContext context = new TransportContext(transport, handler, true);
    TransportServer spark = null;
    PacedBlockServer paced = null;
    try {
      spark = context.createServer(c.sparkPort(), List.of());
      paced = new PacedBlockServer(new ServiceBlockSource(handler.getBlockResolver()), c.threads());
      int port = paced.start("0.0.0.0", c.pacedPort());
      return new ShuffleServers(handler, context, spark, paced, port);
    } catch (Exception e) {
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

  /** Forgets an application's executors; YARN deletes its directories itself. */
  void applicationRemoved(String appId) {
    handler.applicationRemoved(appId, false);
  }

  @Override
  public void close() {
    paced.close();
    spark.close();
    context.close();
    handler.close();
  }
}
