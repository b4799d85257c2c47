/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.fetch;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.buffer.FileSegmentManagedBuffer;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.AppSecrets;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.PacedBlockServer;

/**
 * The sending JVM of {@code coflow bench fetch}: serves segments of one file, either through our
 * {@link PacedBlockServer} ({@code paced}) or through Spark's own block transport ({@code spark}:
 * the {@code TransportServer} and chunk fetches that Spark's shuffle uses). Prints {@code port N},
 * then serves until its standard input closes.
 *
 * <p>Usage: {@code FetchServerMain paced|spark FILE BLOCK_BYTES [crypto]}: with {@code crypto},
 * both authenticate every connection and encrypt it as Spark does with {@code
 * spark.network.crypto.enabled}.
 */
public final class FetchServerMain {

  /** The secret both sides of an encrypted benchmark share. */
  static final String SECRET = "coflow-bench-fetch";

  private FetchServerMain() {}

  /** Spark's transport settings of either side, encrypting or not. */
  static TransportConf conf(boolean crypto) {
    return new TransportConf(
        "shuffle",
        new MapConfigProvider(
            crypto
                ? Map.of("spark.authenticate", "true", "spark.network.crypto.enabled", "true")
                : Map.of()));
  }

  /** The secret of either side; null without encryption. */
  static SecretKeyHolder secrets(boolean crypto) {
    return crypto ? AppSecrets.of(SECRET) : null;
  }

  public static void main(String[] args) throws Exception {
    File file = new File(args[1]);
    long blockBytes = Long.parseLong(args[2]);
    boolean crypto = args.length > 3 && args[3].equals("crypto");
    TransportConf conf = conf(crypto);
    AutoCloseable server;
    int port;
    if (args[0].equals("paced")) {
      // Block ids are "OFFSET:LENGTH" of the file.
      BlockSource source =
          id -> {
            String[] p = id.split(":");
            if (p.length != 2) {
              throw new IOException("expected OFFSET:LENGTH");
            }
            return new BlockSource.Segment(file, Long.parseLong(p[0]), Long.parseLong(p[1]));
          };
      PacedBlockServer paced = new PacedBlockServer(source, conf, secrets(crypto));
      port = paced.start("127.0.0.1", 0);
      server = paced;
    } else {
      OneForOneStreamManager streams = new OneForOneStreamManager();
      RpcHandler handler =
          new RpcHandler() {
            @Override
            public void receive(
                TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
              List<ManagedBuffer> blocks = new ArrayList<>();
              for (long off = 0; off + blockBytes <= file.length(); off += blockBytes) {
                blocks.add(new FileSegmentManagedBuffer(conf, file, off, blockBytes));
              }
              long id = streams.registerStream("bench", blocks.iterator(), client.getChannel());
              callback.onSuccess(ByteBuffer.allocate(8).putLong(0, id));
            }

            @Override
            public StreamManager getStreamManager() {
              return streams;
            }
          };
      TransportContext context = new TransportContext(conf, handler);
      TransportServer spark =
          context.createServer(
              "127.0.0.1",
              0,
              crypto ? List.of(new AuthServerBootstrap(conf, secrets(true))) : List.of());
      port = spark.getPort();
      server = spark;
    }
    System.out.println("port " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // serve until the parent closes our standard input
    }
    server.close();
  }
}
