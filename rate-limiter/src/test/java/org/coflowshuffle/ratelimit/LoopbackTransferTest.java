/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real sockets on loopback: what arrives, pausing and resuming, and bad requests. */
class LoopbackTransferTest {

  @TempDir Path dir;
  private byte[] content;
  private PacedBlockServer server;
  private PacedFetchClient.Factory clients;
  private int port;

  static final TransportConf CONF = new TransportConf("shuffle", MapConfigProvider.EMPTY);

  @BeforeEach
  void serveAFile() throws Exception {
    content = new byte[3_000_000];
    new Random(7).nextBytes(content);
    File file = Files.write(dir.resolve("data"), content).toFile();
    // Block "a" is the whole file; "b" is 1000 bytes from offset 10.
    BlockSource source =
        id ->
            switch (id) {
              case "a" -> new BlockSource.Segment(file, 0, content.length);
              case "b" -> new BlockSource.Segment(file, 10, 1000);
              default -> throw new IOException("no such block");
            };
    server = new PacedBlockServer(source, CONF, null);
    port = server.start("127.0.0.1", 0);
    clients = new PacedFetchClient.Factory(CONF, "app", null);
  }

  @AfterEach
  void stop() {
    clients.close();
    server.close();
  }

  private static CompletableFuture<Long> fetchInto(
      PacedFetchClient c, String flow, String block, double rate, ByteArrayOutputStream out) {
    return c.fetch(flow, block, rate, buf -> copy(buf, out));
  }

  private static void copy(ByteBuf buf, ByteArrayOutputStream out) {
    byte[] b = new byte[buf.readableBytes()];
    buf.readBytes(b);
    synchronized (out) {
      out.write(b, 0, b.length);
    }
  }

  @Test
  void blocksArriveWholeUnlimitedAndPaced() throws Exception {
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      assertEquals(
          3_000_000L, fetchInto(c, "f1", "a", Pacer.UNLIMITED, all).get(10, TimeUnit.SECONDS));
      assertArrayEquals(content, all.toByteArray());
      ByteArrayOutputStream part = new ByteArrayOutputStream();
      assertEquals(1000L, fetchInto(c, "f2", "b", 200_000, part).get(10, TimeUnit.SECONDS));
      byte[] expected = new byte[1000];
      System.arraycopy(content, 10, expected, 0, 1000);
      assertArrayEquals(expected, part.toByteArray());
    }
  }

  @Test
  void aPausedFlowSendsNothingUntilItsRateComes() throws Exception {
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      CompletableFuture<Long> done = fetchInto(c, "f", "b", 0, out);
      Thread.sleep(300);
      assertFalse(done.isDone());
      synchronized (out) {
        assertEquals(0, out.size(), "rate 0 sends nothing");
      }
      c.setRate("f", Pacer.UNLIMITED);
      assertEquals(1000L, done.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void anUnknownBlockIsAnErrorNamingItAndTheConnectionGoesOn() throws Exception {
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> c.fetch("f", "zz", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS));
      assertEquals("block zz: no such block", e.getCause().getMessage());
      assertEquals(1000L, c.fetch("f", "b", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aMalformedMessageIsAnsweredThenTheConnectionClosed() throws Exception {
    PushedMessages pushed = new PushedMessages();
    try (TransportContext context = new TransportContext(CONF, pushed);
        TransportClientFactory factory = context.createClientFactory()) {
      TransportClient raw = factory.createUnmanagedClient("127.0.0.1", port);
      raw.send(ByteBuffer.wrap(new byte[] {9})); // no such message type
      ByteBuf error = Unpooled.wrappedBuffer(pushed.messages.poll(10, TimeUnit.SECONDS));
      assertEquals(Frame.ERROR, error.readByte());
      assertEquals(-1L, error.readLong());
      assertEquals("bad message: unknown message type 9", Frame.readString(error));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (raw.isActive() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertFalse(raw.isActive(), "then the server closes the connection");
    }
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      assertTrue(c.fetch("f", "b", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS) == 1000L);
    }
  }
}
