/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paced transport with Spark's authentication and encryption, over real sockets: a server
 * holding two applications' blocks, as a NodeManager's does, admits each application with its own
 * secret, to its own blocks only, and paces what it sends as it does in clear.
 */
class SecureTransferTest {

  private static final TransportConf ENCRYPTED =
      new TransportConf(
          "shuffle", new MapConfigProvider(Map.of("spark.network.crypto.enabled", "true")));

  /** Secrets as a NodeManager's service holds them: one per application. */
  private static final SecretKeyHolder SERVICE =
      AppSecrets.byApp(Map.of("app-a", "secret-a", "app-b", "secret-b"));

  @TempDir Path dir;
  private byte[] content;
  private PacedBlockServer server;
  private int port;

  @BeforeEach
  void serve() throws Exception {
    content = new byte[1_000_000];
    new Random(3).nextBytes(content);
    File file = Files.write(dir.resolve("data"), content).toFile();
    BlockSource source =
        name -> {
          String[] parts = BlockSource.unqualified(name);
          if (!parts[2].equals("block")) {
            throw new IOException("no such block");
          }
          return new BlockSource.Segment(file, 0, content.length);
        };
    server = new PacedBlockServer(source, ENCRYPTED, SERVICE);
    port = server.start("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Fetches {@code block} as {@code app} holding {@code secret}; null: without authenticating. */
  private byte[] fetch(String app, String secret, String block, double rate) throws Exception {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (PacedFetchClient.Factory clients =
            new PacedFetchClient.Factory(
                ENCRYPTED, app, secret == null ? null : AppSecrets.byApp(Map.of(app, secret)));
        PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      c.fetch(
              "flow",
              block,
              rate,
              (ByteBuf b) -> {
                byte[] bytes = new byte[b.readableBytes()];
                b.readBytes(bytes);
                got.writeBytes(bytes);
              })
          .get(20, TimeUnit.SECONDS);
    }
    return got.toByteArray();
  }

  @Test
  void anApplicationWithItsSecretGetsItsBlockEncryptedAndPaced() throws Exception {
    long start = System.nanoTime();
    assertArrayEquals(content, fetch("app-a", "secret-a", "app-a/1/block", 4_000_000));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds > 0.2, "1 MB at 4 MB/s is paced, took " + seconds + " s");
    assertTrue(server.authenticates());
  }

  @Test
  void noSecretOrAWrongOneGetsNoByte() {
    ExecutionException none =
        assertThrows(
            ExecutionException.class, () -> fetch("app-a", null, "app-a/1/block", Pacer.UNLIMITED));
    assertTrue(
        none.getCause().getMessage().startsWith("the sender refused the fetch:"),
        none.getCause().getMessage());
    IOException wrong =
        assertThrows(
            IOException.class, () -> fetch("app-a", "guess", "app-a/1/block", Pacer.UNLIMITED));
    assertTrue(wrong.getMessage().startsWith("cannot connect to 127.0.0.1:"), wrong.getMessage());
  }

  @Test
  void anotherApplicationsValidSecretOpensOnlyItsOwnBlocks() throws Exception {
    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () -> fetch("app-b", "secret-b", "app-a/1/block", Pacer.UNLIMITED));
    assertEquals(
        "block app-a/1/block: application app-b may not fetch blocks of app-a",
        e.getCause().getMessage());
    assertArrayEquals(content, fetch("app-b", "secret-b", "app-b/1/block", Pacer.UNLIMITED));
  }
}
