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
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real sockets on loopback: what arrives, pausing and resuming, and bad requests. */
class LoopbackTransferTest {

  @TempDir Path dir;
  private byte[] content;
  private PacedBlockServer server;
  private int port;

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
    server = new PacedBlockServer(source, 1);
    port = server.start("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
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
    try (PacedFetchClient c = PacedFetchClient.connect("127.0.0.1", port)) {
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
    try (PacedFetchClient c = PacedFetchClient.connect("127.0.0.1", port)) {
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
    try (PacedFetchClient c = PacedFetchClient.connect("127.0.0.1", port)) {
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> c.fetch("f", "zz", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS));
      assertEquals("block zz: no such block", e.getCause().getMessage());
      assertEquals(1000L, c.fetch("f", "b", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aMalformedFrameIsAnsweredThenTheConnectionClosed() throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(1);
      out.writeByte(9); // no such frame type
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      int length = in.readInt();
      assertEquals(Frame.ERROR, in.readByte());
      assertEquals(-1L, in.readLong());
      byte[] text = new byte[in.readUnsignedShort()];
      in.readFully(text);
      assertEquals(length, 1 + 8 + 2 + text.length);
      assertEquals("bad frame: unknown frame type 9", new String(text, StandardCharsets.UTF_8));
      assertEquals(-1, in.read(), "then the server closes the connection");
    }
    try (PacedFetchClient c = PacedFetchClient.connect("127.0.0.1", port)) {
      assertTrue(c.fetch("f", "b", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS) == 1000L);
    }
  }
}
