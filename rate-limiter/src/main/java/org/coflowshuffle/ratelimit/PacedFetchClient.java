/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.util.TransportConf;

/**
 * The fetching side: asks a {@link PacedBlockServer} for blocks of a flow at a rate, and changes
 * that rate while they arrive. One connection per flow keeps flows independent (a paused flow never
 * holds up another). Connections come from a {@link Factory}, which authenticates them as Spark
 * authenticates its own, and gives up on a server as Spark does: connecting within {@code
 * spark.shuffle.io.connectionTimeout} (Spark's network timeout), and failing every fetch of a
 * connection that has brought neither bytes nor ALIVE for that long (a crashed or cut-off sender).
 * Every fetch's future completes.
 */
public final class PacedFetchClient implements AutoCloseable {

  private record Pending(CompletableFuture<Long> done, Consumer<ByteBuf> sink) {}

  private final TransportClient client;
  private final Factory factory;
  private final String server;
  private final ScheduledFuture<?> watch;
  // When the server was last heard from (or a fetch began on a quiet connection), System.nanoTime.
  private volatile long lastHeard = System.nanoTime();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  // Heap buffers: Spark's client keeps a message until it is written, so it must never be freed.
  private static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);
  // The fetch whose bytes the next message holds; touched on the network thread only.
  private Pending body;

  private PacedFetchClient(TransportClient client, Factory factory, String server) {
    this.client = client;
    this.factory = factory;
    this.server = server;
    long every = Frame.aliveEveryMs(factory.conf);
    watch =
        client
            .getChannel()
            .eventLoop()
            .scheduleAtFixedRate(this::watch, every, every, TimeUnit.MILLISECONDS);
  }

  /** Fails every fetch, and closes, when the server has been silent for the network timeout. */
  private void watch() {
    long silentMs = (System.nanoTime() - lastHeard) / 1_000_000;
    if (!pending.isEmpty() && silentMs > factory.conf.connectionTimeoutMs()) {
      failAll(
          new IOException(
              "no byte from "
                  + server
                  + " for "
                  + silentMs
                  + " ms while fetching: the sender is taken for dead"
                  + " (spark.shuffle.io.connectionTimeout, by default spark.network.timeout)"));
      client.getChannel().close();
    }
  }

  /**
   * Connections to paced servers over Spark's transport, one network thread group for all of them.
   */
  public static final class Factory implements AutoCloseable {

    private final Map<Channel, PacedFetchClient> open = new ConcurrentHashMap<>();
    private final TransportConf conf;
    private final TransportContext context;
    private final TransportClientFactory clients;

    /**
     * @param conf Spark's transport settings: threads, and {@code spark.network.crypto.*}
     * @param appId the application the connections authenticate as
     * @param secrets its secret; null for no authentication
     */
    public Factory(TransportConf conf, String appId, SecretKeyHolder secrets) {
      this.conf = conf;
      context = new TransportContext(conf, new Receiver());
      clients =
          context.createClientFactory(
              secrets == null ? List.of() : List.of(new AuthClientBootstrap(conf, appId, secrets)));
    }

    /**
     * A new connection to a server.
     *
     * @throws IOException naming the server when it cannot be reached or refuses to authenticate
     */
    public PacedFetchClient connect(String host, int port) throws IOException {
      try {
        TransportClient c = clients.createUnmanagedClient(host, port);
        PacedFetchClient paced = new PacedFetchClient(c, this, host + ":" + port);
        open.put(c.getChannel(), paced);
        return paced;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted connecting to " + host + ":" + port, e);
      } catch (IOException | RuntimeException e) {
        throw new IOException("cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
      }
    }

    /** Connections open now. */
    public int openConnections() {
      return open.size();
    }

    @Override
    public void close() {
      open.values().forEach(PacedFetchClient::close);
      clients.close();
      context.close();
    }

    /** Hands what servers push to the connection it came on. */
    private final class Receiver extends RpcHandler {
      private final StreamManager streams = new OneForOneStreamManager();

      @Override
      public void receive(TransportClient c, ByteBuffer message, RpcResponseCallback callback) {
        callback.onFailure(new UnsupportedOperationException("a fetching client takes no RPCs"));
      }

      @Override
      public void receive(TransportClient c, ByteBuffer message) {
        PacedFetchClient paced = open.get(c.getChannel());
        if (paced != null) {
          paced.onMessage(Unpooled.wrappedBuffer(message));
        }
      }

      @Override
      public void channelInactive(TransportClient c) {
        PacedFetchClient paced = open.remove(c.getChannel());
        if (paced != null) {
          paced.watch.cancel(false);
          paced.failAll(new IOException("connection to " + paced.server + " closed"));
        }
      }

      @Override
      public StreamManager getStreamManager() {
        return streams;
      }
    }
  }

  /**
   * Fetches a block of {@code flowId} at {@code bytesPerSecond} ({@link Pacer#UNLIMITED} for no
   * limit). {@code sink} gets each arriving chunk on the network thread and must not keep it.
   *
   * @return completes with the block's size, or exceptionally with the sender's error
   */
  public CompletableFuture<Long> fetch(
      String flowId, String blockId, double bytesPerSecond, Consumer<ByteBuf> sink) {
    long id = ids.incrementAndGet();
    CompletableFuture<Long> done = new CompletableFuture<>();
    if (pending.isEmpty()) {
      lastHeard = System.nanoTime(); // a quiet connection's silence so far is no sign of death
    }
    pending.put(id, new Pending(done, sink));
    if (!client.getChannel().isActive()) {
      pending.remove(id);
      done.completeExceptionally(new IOException("connection to " + server + " closed"));
      return done;
    }
    client.sendRpc(
        Frame.fetch(HEAP, id, flowId, blockId, bytesPerSecond).nioBuffer(),
        new RpcResponseCallback() {
          @Override
          public void onSuccess(ByteBuffer response) {} // its bytes, end or error follow

          @Override
          public void onFailure(Throwable e) {
            pending.remove(id);
            done.completeExceptionally(
                new IOException("the sender refused the fetch: " + e.getMessage(), e));
          }
        });
    return done;
  }

  /** Changes the rate of a flow, from its next chunk on. */
  public void setRate(String flowId, double bytesPerSecond) {
    client.send(Frame.rate(HEAP, flowId, bytesPerSecond).nioBuffer());
  }

  /**
   * What the sender pushed. A message that does not parse, or of an unknown type, fails every fetch
   * of the connection and closes it: after it, nothing on the connection can be trusted.
   */
  private void onMessage(ByteBuf message) {
    lastHeard = System.nanoTime();
    if (body != null) {
      Pending p = body;
      body = null;
      p.sink().accept(message);
      return;
    }
    try {
      byte type = message.readByte();
      if (type == Frame.ALIVE) {
        return; // only that the sender lives
      }
      long id = message.readLong();
      Pending p = pending.get(id);
      switch (type) {
        case Frame.DATA -> body = p != null ? p : new Pending(new CompletableFuture<>(), b -> {});
        case Frame.END -> {
          long total = message.readLong();
          if (p != null) {
            pending.remove(id);
            p.done().complete(total);
          }
        }
        case Frame.ERROR -> {
          String text = Frame.readString(message);
          if (p != null) {
            pending.remove(id);
            p.done().completeExceptionally(new IOException(text));
          } else {
            failAll(new IOException(text)); // about no fetch of ours: the connection's end
          }
        }
        default -> throw new IllegalArgumentException("unknown message type " + type);
      }
    } catch (RuntimeException e) {
      failAll(new IOException("malformed message from " + server + ": " + e.getMessage()));
      client.getChannel().close();
    }
  }

  private void failAll(IOException e) {
    pending.values().forEach(p -> p.done().completeExceptionally(e));
    pending.clear();
  }

  @Override
  public void close() {
    watch.cancel(false);
    factory.open.remove(client.getChannel());
    client
        .getChannel()
        .close(); // without waiting: a fetch's callback may close on the network thread
    failAll(new IOException("connection closed"));
  }
}
