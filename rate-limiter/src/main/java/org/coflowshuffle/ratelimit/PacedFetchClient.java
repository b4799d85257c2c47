/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The fetching side: asks a {@link PacedBlockServer} for blocks of a flow at a rate, and changes
 * that rate while they arrive. One connection per flow keeps flows independent (a paused flow never
 * holds up another).
 */
public final class PacedFetchClient implements AutoCloseable {

  /** Largest DATA frame accepted: the largest chunk plus its header. */
  private static final int MAX_FRAME = Pacer.UNLIMITED_CHUNK + Frame.DATA_HEADER;

  private record Pending(CompletableFuture<Long> done, Consumer<ByteBuf> sink) {}

  private final EventLoopGroup group;
  private final boolean ownsGroup;
  private final Channel channel;
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  private PacedFetchClient(EventLoopGroup group, boolean ownsGroup, Channel channel) {
    this.group = group;
    this.ownsGroup = ownsGroup;
    this.channel = channel;
  }

  /**
   * A network thread group for clients that share one (see {@link #connect(String, int,
   * EventLoopGroup)}).
   */
  public static EventLoopGroup newGroup(int threads) {
    return new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
  }

  /** Connects to a server, with a network thread of its own. */
  public static PacedFetchClient connect(String host, int port) throws IOException {
    return connect(host, port, newGroup(1), true);
  }

  /** Connects to a server on a shared network thread group, which {@link #close} leaves running. */
  public static PacedFetchClient connect(String host, int port, EventLoopGroup group)
      throws IOException {
    return connect(host, port, group, false);
  }

  private static PacedFetchClient connect(
      String host, int port, EventLoopGroup group, boolean ownsGroup) throws IOException {
    PacedFetchClient[] self = new PacedFetchClient[1];
    Bootstrap b =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4),
                            new ChannelInboundHandlerAdapter() {
                              @Override
                              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                self[0].onFrame((ByteBuf) msg); // set before any FETCH is sent
                              }

                              @Override
                              public void channelInactive(ChannelHandlerContext ctx) {
                                if (self[0] != null) {
                                  self[0].failAll(new IOException("connection closed"));
                                }
                              }
                            });
                  }
                });
    try {
      Channel ch = b.connect(host, port).sync().channel();
      self[0] = new PacedFetchClient(group, ownsGroup, ch);
      return self[0];
    } catch (Exception e) {
      if (ownsGroup) {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      }
      throw new IOException("cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
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
    pending.put(id, new Pending(done, sink));
    channel.writeAndFlush(Frame.fetch(channel.alloc(), id, flowId, blockId, bytesPerSecond));
    return done;
  }

  /** Changes the rate of a flow, from its next chunk on. */
  public void setRate(String flowId, double bytesPerSecond) {
    channel.writeAndFlush(Frame.rate(channel.alloc(), flowId, bytesPerSecond));
  }

  private void onFrame(ByteBuf frame) {
    try {
      byte type = frame.readByte();
      long id = frame.readLong();
      Pending p = pending.get(id);
      if (p == null) {
        return;
      }
      switch (type) {
        case Frame.DATA -> p.sink().accept(frame);
        case Frame.END -> {
          pending.remove(id);
          p.done().complete(frame.readLong());
        }
        case Frame.ERROR -> {
          pending.remove(id);
          p.done().completeExceptionally(new IOException(Frame.readString(frame)));
        }
        default -> failAll(new IOException("unknown frame type " + type + " from the sender"));
      }
    } finally {
      frame.release();
    }
  }

  private void failAll(IOException e) {
    pending.values().forEach(p -> p.done().completeExceptionally(e));
    pending.clear();
  }

  @Override
  public void close() {
    if (ownsGroup) {
      channel.close().syncUninterruptibly();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    } else {
      channel.close(); // may run on the shared group's own thread, which must never wait
    }
  }
}
