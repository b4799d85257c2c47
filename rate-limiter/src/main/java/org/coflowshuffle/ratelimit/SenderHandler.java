/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.buffer.FileSegmentManagedBuffer;
import org.apache.spark.network.buffer.NettyManagedBuffer;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.protocol.OneWayMessage;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.util.TransportConf;

/**
 * The sending side of every connection of a {@link PacedBlockServer}: blocks are sent one after
 * another in the order asked, each in chunks handed to the connection when its flow's {@link Pacer}
 * allows, straight from the file (zero-copy where the connection is not encrypted). A connection
 * that authenticated as an application may fetch only that application's blocks. A bad message is
 * answered with an ERROR naming what was wrong, then the connection is closed. A connection's state
 * is touched only on its event loop.
 */
final class SenderHandler extends RpcHandler {

  /**
   * Most blocks queued and flows known on one connection: a client fetches one flow per connection,
   * its blocks a handful of map outputs at a time; past these a connection is refused as malformed,
   * so that no client holds the server's memory without bound.
   */
  static final int MAX_QUEUED = 10_000;

  static final int MAX_FLOWS = 1_024;

  private final BlockSource source;
  private final TransportConf conf;
  private final StreamManager streams = new OneForOneStreamManager();
  private final Map<Channel, Connection> connections = new ConcurrentHashMap<>();
  private final long aliveEveryMs;

  SenderHandler(BlockSource source, TransportConf conf) {
    this.source = source;
    this.conf = conf;
    this.aliveEveryMs = Frame.aliveEveryMs(conf);
  }

  /**
   * A FETCH comes as an RPC, so that a client Spark's authentication turns away hears why (Spark
   * answers a one-way message on an unauthenticated connection with nothing). It is acknowledged
   * first; its bytes, end or error follow as one-way messages.
   */
  @Override
  public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
    Connection c = connection(client);
    if (!c.refused) { // a refused connection answers nothing more: it is closing
      callback.onSuccess(ByteBuffer.allocate(0));
      c.receive(Unpooled.wrappedBuffer(message));
    }
  }

  @Override
  public void receive(TransportClient client, ByteBuffer message) {
    connection(client).receive(Unpooled.wrappedBuffer(message));
  }

  private Connection connection(TransportClient client) {
    return connections.computeIfAbsent(client.getChannel(), c -> new Connection(client));
  }

  @Override
  public void channelInactive(TransportClient client) {
    Connection c = connections.remove(client.getChannel());
    if (c != null) {
      c.stop();
    }
  }

  @Override
  public StreamManager getStreamManager() {
    return streams;
  }

  /** One block being sent. */
  private static final class Transfer {
    final long requestId;
    final Pacer pacer;
    final BlockSource.Segment segment;
    long sent;

    Transfer(long requestId, Pacer pacer, BlockSource.Segment segment) {
      this.requestId = requestId;
      this.pacer = pacer;
      this.segment = segment;
    }
  }

  /** The flows of one connection and the blocks it has yet to send. */
  private final class Connection {
    private final TransportClient client;
    private final Channel channel;
    private final Map<String, Pacer> pacers = new HashMap<>();
    private final ArrayDeque<Transfer> queue = new ArrayDeque<>();
    private final ScheduledFuture<?> alive;
    private ScheduledFuture<?> wakeUp;
    private boolean sentSinceAlive;

    /** Refused after a malformed message: what else comes is read and dropped until it closes. */
    private boolean refused;

    Connection(TransportClient client) {
      this.client = client;
      this.channel = client.getChannel();
      // Spark's handler passes writability on: sending goes on once the socket drains.
      channel
          .pipeline()
          .addLast(
              "pacedSender",
              new ChannelInboundHandlerAdapter() {
                @Override
                public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                  if (ctx.channel().isWritable()) {
                    send();
                  }
                  ctx.fireChannelWritabilityChanged();
                }
              });
      alive =
          channel
              .eventLoop()
              .scheduleAtFixedRate(this::alive, aliveEveryMs, aliveEveryMs, TimeUnit.MILLISECONDS);
    }

    /** Says ALIVE when blocks wait and nothing went out since the last time. */
    private void alive() {
      if (!queue.isEmpty() && !sentSinceAlive) {
        write(Frame.alive(channel.alloc()));
        channel.flush();
      }
      sentSinceAlive = false;
    }

    void receive(ByteBuf message) {
      if (refused) {
        return;
      }
      long requestId = -1;
      try {
        byte type = message.readByte();
        switch (type) {
          case Frame.FETCH -> {
            requestId = message.readLong();
            String flow = Frame.readString(message);
            String block = Frame.readString(message);
            double rate = Frame.readRate(message);
            BlockSource.Segment segment;
            try {
              segment = source.resolve(authorized(block));
            } catch (IOException e) {
              write(
                  Frame.error(
                      channel.alloc(), requestId, "block " + block + ": " + e.getMessage()));
              channel.flush();
              return; // an unknown block is the caller's problem, not the connection's
            }
            if (queue.size() >= MAX_QUEUED) {
              throw new IllegalArgumentException(
                  "more than " + MAX_QUEUED + " blocks queued on one connection");
            }
            Pacer pacer = pacers.get(flow);
            long now = System.nanoTime();
            if (pacer == null && pacers.size() >= MAX_FLOWS) {
              throw new IllegalArgumentException(
                  "more than " + MAX_FLOWS + " flows on one connection");
            }
            if (pacer == null) {
              pacers.put(flow, pacer = new Pacer(rate, now));
            } else if (pacer.rate() != rate) {
              pacer.setRate(rate, now);
            }
            queue.add(new Transfer(requestId, pacer, segment));
            send();
          }
          case Frame.RATE -> {
            String flow = Frame.readString(message);
            double rate = Frame.readRate(message);
            Pacer pacer = pacers.get(flow);
            if (pacer != null) {
              pacer.setRate(rate, System.nanoTime());
              if (wakeUp != null) {
                wakeUp.cancel(false);
                wakeUp = null;
              }
              send();
            }
          }
          default -> throw new IllegalArgumentException("unknown message type " + type);
        }
      } catch (RuntimeException e) { // malformed: say what, then close
        refuse(requestId, "bad message: " + e.getMessage());
      }
    }

    /**
     * Sends the error, then ends the connection gracefully: its sending side first, so the client
     * reads the error before the end (closing outright with the client's next messages unread would
     * reset the connection, and a reset can discard the error before the client reads it); the rest
     * after the client closed, or two seconds.
     */
    private void refuse(long requestId, String why) {
      refused = true;
      stop();
      write(Frame.error(channel.alloc(), requestId, why))
          .addListener(
              (ChannelFutureListener)
                  f -> {
                    if (channel instanceof DuplexChannel d) {
                      d.shutdownOutput();
                      channel.eventLoop().schedule(() -> channel.close(), 2, TimeUnit.SECONDS);
                    } else {
                      channel.close();
                    }
                  });
      channel.flush();
    }

    /**
     * {@code block}, if this connection may fetch it: any block without authentication; with it,
     * only those of the application it authenticated as (a server of one executor serves only that
     * executor's application, whose secret alone admits a client).
     */
    private String authorized(String block) throws IOException {
      String app = client.getClientId();
      if (app != null && block.indexOf('/') >= 0) {
        String owner = BlockSource.unqualified(block)[0];
        if (!owner.equals(app)) {
          throw new IOException("application " + app + " may not fetch blocks of " + owner);
        }
      }
      return block;
    }

    void stop() {
      alive.cancel(false);
      queue.clear();
      if (wakeUp != null) {
        wakeUp.cancel(false);
      }
    }

    /** Sends chunks while the pacers and the connection allow; schedules itself to go on later. */
    private void send() {
      boolean wrote = false;
      while (!queue.isEmpty() && wakeUp == null && channel.isWritable()) {
        Transfer t = queue.peek();
        long left = t.segment.length() - t.sent;
        if (left == 0) {
          queue.poll();
          write(Frame.end(channel.alloc(), t.requestId, t.sent));
          wrote = true;
          continue;
        }
        long delay = t.pacer.delayNanos(System.nanoTime());
        if (delay == Long.MAX_VALUE) {
          break; // paused until a RATE message
        }
        if (delay > 0) {
          wakeUp =
              channel
                  .eventLoop()
                  .schedule(
                      () -> {
                        wakeUp = null;
                        send();
                      },
                      delay,
                      TimeUnit.NANOSECONDS);
          break;
        }
        int n = (int) Math.min(left, t.pacer.chunkBytes());
        write(Frame.data(channel.alloc(), t.requestId, n));
        channel.write(
            new OneWayMessage(
                new FileSegmentManagedBuffer(
                    conf, t.segment.file(), t.segment.offset() + t.sent, n)));
        t.sent += n;
        t.pacer.sent(n);
        wrote = true;
        if (t.pacer.rate()
            != Pacer.UNLIMITED) { // a paced chunk leaves now: its time is the pacer's
          channel.flush();
          wrote = false;
        }
      }
      if (wrote) {
        channel.flush();
      }
    }

    private ChannelFuture write(ByteBuf message) {
      sentSinceAlive = true;
      return channel.write(new OneWayMessage(new NettyManagedBuffer(message)));
    }
  }
}
