/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paced transport against random and mutated messages, both ways, over real sockets ({@code
 * -Dcoflow.fuzz.frames=N} for more). The sender answers every malformed message with an ERROR
 * saying so and closes, goes on after every well-formed one, never goes silent, and still serves a
 * well-behaved client at the end. The fetching client, fed garbage by a sender, completes every
 * fetch (with the block's size or an error) and leaks no connection.
 */
class PacedTransportFuzzIT {

  private static final int FRAMES = Integer.getInteger("coflow.fuzz.frames", 20_000);
  private static final TransportConf CONF = new TransportConf("shuffle", MapConfigProvider.EMPTY);
  private static final ByteBufAllocator HEAP = ByteBufAllocator.DEFAULT;
  private static final int BLOCK = 1000;
  private static final long PROBE = 1L << 40;

  @TempDir Path dir;

  /** What a message should get: served on (true), refused as malformed (false), either (null). */
  private record Fuzz(String kind, byte[] bytes, Boolean wellFormed) {}

  private static byte[] bytes(ByteBuf b) {
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    b.release();
    return out;
  }

  private static double someRate(Random r) {
    return r.nextBoolean() ? Pacer.UNLIMITED : 1e8 + r.nextInt(1_000_000);
  }

  /** The next message to send the sender. Rates of fetches are never mutated: see the kinds. */
  private static Fuzz next(Random r, long id) {
    String flow = "f" + r.nextInt(4);
    byte[] fetch = bytes(Frame.fetch(HEAP, id, flow, "b", someRate(r)));
    return switch (r.nextInt(10)) {
      case 0 -> new Fuzz("fetch", fetch, true);
      case 1 ->
          new Fuzz("fetch unknown block", bytes(Frame.fetch(HEAP, id, flow, "zz", 1e9)), true);
      case 2 -> {
        double[] rates = {0, 1e6, Pacer.UNLIMITED};
        yield new Fuzz("rate", bytes(Frame.rate(HEAP, flow, rates[r.nextInt(3)])), true);
      }
      case 3 -> {
        double[] bad = {-1, Double.NaN, Double.NEGATIVE_INFINITY};
        yield new Fuzz("bad rate", bytes(Frame.rate(HEAP, flow, bad[r.nextInt(3)])), false);
      }
      case 4 -> {
        byte[] b = fetch.clone();
        b[0] = (byte) (7 + r.nextInt(200));
        yield new Fuzz("unknown type", b, false);
      }
      case 5 -> {
        byte[] whole = r.nextBoolean() ? fetch : bytes(Frame.rate(HEAP, flow, 1e6));
        yield new Fuzz("truncated", java.util.Arrays.copyOf(whole, r.nextInt(whole.length)), false);
      }
      case 6 -> {
        ByteBuf b = HEAP.buffer().writeByte(Frame.FETCH).writeLong(id);
        b.writeShort(200 + r.nextInt(60_000)).writeBytes(new byte[r.nextInt(100)]);
        yield new Fuzz("string past the end", bytes(b), false);
      }
      case 7 -> {
        // A bit flipped before the rate: type, id, string lengths or characters.
        byte[] b = fetch.clone();
        int at = r.nextInt(b.length - 8);
        b[at] ^= (byte) (1 << r.nextInt(8));
        yield new Fuzz("bit flip", b, null);
      }
      case 8 -> {
        byte[] b = java.util.Arrays.copyOf(fetch, fetch.length + 1 + r.nextInt(32));
        yield new Fuzz("trailing bytes", b, null);
      }
      default -> {
        byte[] b = new byte[r.nextInt(64)];
        r.nextBytes(b);
        yield new Fuzz("random", b, null);
      }
    };
  }

  @Test
  void theSenderAnswersEveryMessageAndNeverGoesSilent() throws Exception {
    byte[] content = new byte[BLOCK];
    new Random(3).nextBytes(content);
    File file = Files.write(dir.resolve("data"), content).toFile();
    BlockSource source =
        id -> {
          if (id.equals("b")) {
            return new BlockSource.Segment(file, 0, BLOCK);
          }
          throw new IOException("no such block");
        };
    Random random = new Random(20261127L);
    Map<String, Integer> kinds = new TreeMap<>();
    int refused = 0;
    int threadsBefore;
    PushedMessages pushed = new PushedMessages();
    try (PacedBlockServer server = new PacedBlockServer(source, CONF, null);
        TransportContext context = new TransportContext(CONF, pushed);
        TransportClientFactory factory = context.createClientFactory()) {
      int port = server.start("127.0.0.1", 0);
      TransportClient raw = null;
      threadsBefore = -1;
      for (int i = 0; i < FRAMES; i++) {
        if (raw == null) {
          raw = factory.createUnmanagedClient("127.0.0.1", port);
          pushed.messages.clear();
        }
        Fuzz f = next(random, i);
        kinds.merge(f.kind(), 1, Integer::sum);
        if (random.nextBoolean()) {
          raw.send(ByteBuffer.wrap(f.bytes()));
        } else {
          raw.sendRpc(ByteBuffer.wrap(f.bytes()), new Ignored());
        }
        raw.send(Frame.fetch(HEAP, PROBE + i, "probe", "b", Pacer.UNLIMITED).nioBuffer());
        boolean served = awaitProbe(pushed.messages, PROBE + i, i, f);
        if (f.wellFormed() != null && served != f.wellFormed()) {
          fail("message " + i + " (" + f.kind() + ") was " + (served ? "served" : "refused"));
        }
        if (!served) {
          refused++;
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          while (raw.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(1);
          }
          assertTrue(!raw.isActive(), "message " + i + ": refused, then closed");
          raw.close();
          raw = null;
        }
        if (i == 100) {
          threadsBefore = Thread.activeCount(); // the event loops have started by now
        }
      }
      if (raw != null) {
        raw.close();
      }
      try (PacedFetchClient.Factory clients = new PacedFetchClient.Factory(CONF, "app", null);
          PacedFetchClient c = clients.connect("127.0.0.1", port)) {
        assertEquals(
            (long) BLOCK,
            c.fetch("f", "b", Pacer.UNLIMITED, b -> {}).get(10, TimeUnit.SECONDS),
            "a well-behaved client is still served");
      }
      assertTrue(
          Thread.activeCount() <= threadsBefore + 4,
          "threads: " + threadsBefore + " then " + Thread.activeCount());
    }
    assertTrue(refused > FRAMES / 5, "refused " + refused + " of " + FRAMES + ": " + kinds);
    System.out.printf(
        "paced sender fuzz: %d messages, %d refused, kinds %s%n", FRAMES, refused, kinds);
  }

  /**
   * Reads what the sender pushes until the probe's END (true: the connection went on) or a
   * malformed-message ERROR (false); fails if neither comes within 10 s.
   */
  private static boolean awaitProbe(BlockingQueue<ByteBuffer> in, long probe, int i, Fuzz f)
      throws InterruptedException {
    boolean body = false;
    StringBuilder seen = new StringBuilder();
    while (true) {
      ByteBuffer m = in.poll(10, TimeUnit.SECONDS);
      assertNotNull(
          m,
          "message "
              + i
              + " ("
              + f.kind()
              + ", "
              + java.util.HexFormat.of().formatHex(f.bytes())
              + "): the sender went silent after"
              + seen);
      if (body) {
        body = false; // a block's bytes
        continue;
      }
      ByteBuf b = Unpooled.wrappedBuffer(m);
      byte type = b.readByte();
      seen.append(' ').append(type);
      if (type == Frame.ALIVE) {
        continue;
      }
      long id = b.readLong();
      switch (type) {
        case Frame.DATA -> body = true;
        case Frame.END -> {
          if (id == probe) {
            assertEquals(BLOCK, b.readLong(), "the probe's block whole");
            return true;
          }
        }
        case Frame.ERROR -> {
          String text = Frame.readString(b);
          if (text.startsWith("bad message: ")) {
            return false;
          }
          assertTrue(text.endsWith(": no such block"), "message " + i + ": " + text);
        }
        default -> fail("message " + i + ": the sender pushed type " + type);
      }
    }
  }

  private static final class Ignored implements RpcResponseCallback {
    @Override
    public void onSuccess(ByteBuffer response) {}

    @Override
    public void onFailure(Throwable e) {}
  }

  /** A sender that answers each fetch with a random script of good and bad messages. */
  private static final class GarbageSender extends RpcHandler {
    private final Random random = new Random(11);

    @Override
    public void receive(TransportClient c, ByteBuffer m, RpcResponseCallback cb) {
      cb.onSuccess(ByteBuffer.allocate(0));
      ByteBuf fetch = Unpooled.wrappedBuffer(m);
      fetch.readByte();
      long id = fetch.readLong();
      Random r;
      synchronized (this) {
        r = new Random(random.nextLong());
      }
      for (int k = r.nextInt(4); k > 0; k--) {
        c.send(ByteBuffer.wrap(garbage(r, id)));
      }
      switch (r.nextInt(20)) {
        case 0 -> {} // silence: the client's watch must end it
        case 1, 2, 3, 4 -> c.getChannel().close();
        case 5, 6, 7 -> c.send(Frame.error(HEAP, id, "no").nioBuffer());
        default -> {
          c.send(Frame.data(HEAP, id, 3).nioBuffer());
          c.send(ByteBuffer.wrap(new byte[] {1, 2, 3}));
          c.send(Frame.end(HEAP, id, 3).nioBuffer());
        }
      }
    }

    private static byte[] garbage(Random r, long id) {
      return switch (r.nextInt(6)) {
        case 0 -> new byte[0];
        case 1 -> bytes(Frame.end(HEAP, id + 1 + r.nextInt(5), 7)); // another fetch's end
        case 2 -> new byte[] {Frame.END, 0, 0}; // cut short
        case 3 -> bytes(HEAP.buffer().writeByte(Frame.ERROR).writeLong(id).writeShort(500));
        case 4 -> new byte[] {(byte) (9 + r.nextInt(100))};
        default -> bytes(Frame.alive(HEAP));
      };
    }

    @Override
    public void receive(TransportClient c, ByteBuffer m) {}

    @Override
    public StreamManager getStreamManager() {
      return new OneForOneStreamManager();
    }
  }

  @Test
  void theClientCompletesEveryFetchWhateverTheSenderSends() throws Exception {
    // Silence is taken for death after 1 s here, not Spark's 120 s.
    TransportConf fast =
        new TransportConf(
            "shuffle", new MapConfigProvider(Map.of("spark.shuffle.io.connectionTimeout", "1s")));
    int fetches = Math.max(200, FRAMES / 50);
    Map<String, Integer> outcomes = new TreeMap<>();
    try (TransportContext context = new TransportContext(fast, new GarbageSender());
        TransportServer sender = context.createServer("127.0.0.1", 0, List.of());
        PacedFetchClient.Factory clients = new PacedFetchClient.Factory(fast, "app", null)) {
      for (int i = 0; i < fetches; i++) {
        try (PacedFetchClient c = clients.connect("127.0.0.1", sender.getPort())) {
          CompletableFuture<Long> f = c.fetch("f", "b", Pacer.UNLIMITED, b -> {});
          try {
            long size = f.get(10, TimeUnit.SECONDS);
            assertEquals(3L, size, "fetch " + i + ": the only size a sender says here");
            outcomes.merge("completed", 1, Integer::sum);
          } catch (ExecutionException e) {
            assertTrue(e.getCause() instanceof IOException, "fetch " + i + ": " + e.getCause());
            outcomes.merge("failed", 1, Integer::sum);
          } catch (TimeoutException e) {
            fail("fetch " + i + " never completed");
          }
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (clients.openConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, clients.openConnections(), "every connection closed");
    }
    assertTrue(outcomes.getOrDefault("completed", 0) > 0, outcomes.toString());
    assertTrue(outcomes.getOrDefault("failed", 0) > 0, outcomes.toString());
    System.out.printf("paced client fuzz: %d fetches, %s%n", fetches, outcomes);
  }
}
