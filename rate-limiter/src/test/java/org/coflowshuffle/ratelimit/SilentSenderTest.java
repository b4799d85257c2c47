/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sender that goes quiet: over real sockets, with Spark's network timeout at 1 s, a paused flow
 * outlives it (the sender says it is alive), a sender cut off mid-fetch fails the fetch in bounded
 * time, and a fetch on a closed connection fails at once.
 */
class SilentSenderTest {

  private static final TransportConf CONF =
      new TransportConf(
          "shuffle", new MapConfigProvider(Map.of("spark.shuffle.io.connectionTimeout", "1s")));
  private static final int SIZE = 1_000_000;

  @TempDir Path dir;
  private PacedBlockServer server;
  private PacedFetchClient.Factory clients;
  private int port;
  private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

  @BeforeEach
  void serve() throws Exception {
    File file = Files.write(dir.resolve("data"), new byte[SIZE]).toFile();
    server = new PacedBlockServer(id -> new BlockSource.Segment(file, 0, SIZE), CONF, null);
    port = server.start("127.0.0.1", 0);
    clients = new PacedFetchClient.Factory(CONF, "app", null);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    clients.close();
    server.close();
  }

  @Test
  void aPausedFlowOutlivesTheNetworkTimeout() throws Exception {
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      CompletableFuture<Long> f = c.fetch("flow", "block", 0, b -> b.skipBytes(b.readableBytes()));
      Thread.sleep(3_000); // three timeouts, paused
      assertFalse(f.isDone(), "a paused fetch is still waiting: " + f);
      c.setRate("flow", Pacer.UNLIMITED);
      assertEquals(SIZE, f.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aSenderCutOffMidFetchFailsTheFetchInBoundedTime() throws Exception {
    FreezingProxy proxy = new FreezingProxy(port);
    closing.add(proxy);
    AtomicLong got = new AtomicLong();
    try (PacedFetchClient c = clients.connect("127.0.0.1", proxy.port())) {
      CompletableFuture<Long> f =
          c.fetch("flow", "block", 200_000, b -> got.addAndGet(b.readableBytes()));
      Thread.sleep(1_000);
      assertTrue(got.get() > 0, "bytes came before the cut");
      proxy.freeze(); // packets dropped both ways; no FIN, no RST
      long cut = System.nanoTime();
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
      double seconds = (System.nanoTime() - cut) / 1e9;
      assertTrue(
          e.getCause().getMessage().contains("the sender is taken for dead"),
          e.getCause().getMessage());
      assertTrue(seconds < 3, "failed " + seconds + " s after the cut, the timeout is 1 s");
      assertTrue(got.get() < SIZE);
    }
  }

  @Test
  void aFetchOnAClosedConnectionFailsAtOnce() throws Exception {
    try (PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      assertEquals(
          SIZE, c.fetch("flow", "block", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS));
      server.close();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      CompletableFuture<Long> f;
      do {
        f = c.fetch("flow", "block", Pacer.UNLIMITED, b -> {});
        assertTrue(System.nanoTime() < until, "the closed server was never noticed");
      } while (notYetFailed(f));
      CompletableFuture<Long> last = f;
      assertThrows(ExecutionException.class, () -> last.get(1, TimeUnit.SECONDS));
    }
  }

  /**
   * Waits briefly for {@code f}; whether the close is not yet noticed: the fetch is still open, or
   * the server, whose close takes effect asynchronously, still served it.
   */
  private static boolean notYetFailed(CompletableFuture<Long> f) throws InterruptedException {
    try {
      f.get(200, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return false;
    } catch (java.util.concurrent.TimeoutException e) {
      return true;
    }
    return true;
  }

  /** A TCP relay that can stop relaying while keeping both connections open: a black hole. */
  private static final class FreezingProxy implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0);
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    FreezingProxy(int target) throws IOException {
      Thread accept =
          new Thread(
              () -> {
                try {
                  Socket down = listener.accept();
                  Socket up = new Socket("127.0.0.1", target);
                  sockets.addAll(List.of(down, up));
                  pump(down.getInputStream(), up.getOutputStream());
                  pump(up.getInputStream(), down.getOutputStream());
                } catch (IOException e) {
                  // closed by the test
                }
              });
      accept.setDaemon(true);
      accept.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    void freeze() {
      frozen = true;
    }

    private void pump(InputStream in, OutputStream out) {
      Thread t =
          new Thread(
              () -> {
                byte[] buf = new byte[8192];
                try {
                  while (true) {
                    while (frozen) {
                      Thread.sleep(50); // read nothing, write nothing, close nothing
                    }
                    int n = in.read(buf);
                    if (n < 0 || frozen) {
                      return;
                    }
                    out.write(buf, 0, n);
                  }
                } catch (IOException | InterruptedException e) {
                  // closed by the test
                }
              });
      t.setDaemon(true);
      t.start();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
