/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import java.util.List;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.TransportConf;

/**
 * The sending side: serves blocks to fetching reducers, each flow paced at the rate its reducer
 * asked for, changeable while the block is sent. Pacing is done by when bytes are handed to the
 * socket, not by the kernel, so it needs no root. It runs on Spark's own transport: with secrets,
 * every connection first authenticates as an application by Spark's protocol (and is encrypted when
 * {@code spark.network.crypto.enabled} is on), exactly as Spark's block transfers are.
 */
public final class PacedBlockServer implements AutoCloseable {

  private final TransportContext context;
  private final SecretKeyHolder secrets;
  private final TransportConf conf;
  private TransportServer server;

  /**
   * @param source where blocks are
   * @param conf Spark's transport settings: threads, and {@code spark.network.crypto.*}
   * @param secrets the applications' secrets, to authenticate every connection with; null for no
   *     authentication
   */
  public PacedBlockServer(BlockSource source, TransportConf conf, SecretKeyHolder secrets) {
    this.conf = conf;
    this.secrets = secrets;
    this.context = new TransportContext(conf, new SenderHandler(source, conf));
  }

  /**
   * Listens on {@code host:port} (port 0 for any free port).
   *
   * @return the port it listens on
   * @throws RuntimeException when the port cannot be bound (Spark's server wraps the cause)
   */
  public int start(String host, int port) {
    server =
        context.createServer(
            host,
            port,
            secrets == null ? List.of() : List.of(new AuthServerBootstrap(conf, secrets)));
    return server.getPort();
  }

  /** Whether every connection authenticates. */
  public boolean authenticates() {
    return secrets != null;
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
    context.close();
  }
}
