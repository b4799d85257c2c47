/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.net.InetSocketAddress;

/**
 * The sending side: serves blocks to fetching reducers, each flow paced at the rate its reducer
 * asked for, changeable while the block is sent. Runs in the sending executor; needs no root, since
 * pacing is done by when bytes are handed to the socket, not by the kernel.
 */
public final class PacedBlockServer implements AutoCloseable {

  private final BlockSource source;
  private final EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final EventLoopGroup workers;
  private Channel channel;

  /**
   * @param source where blocks are
   * @param threads event-loop threads sending blocks
   */
  public PacedBlockServer(BlockSource source, int threads) {
    this.source = source;
    this.workers = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
  }

  /**
   * Listens on {@code host:port} (port 0 for any free port).
   *
   * @return the port it listens on
   */
  public int start(String host, int port) throws InterruptedException {
    ServerBootstrap b =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new LengthFieldBasedFrameDecoder(Frame.MAX_CONTROL_FRAME, 0, 4, 0, 4),
                            new SenderHandler(source));
                  }
                });
    channel = b.bind(host, port).sync().channel();
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
    boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }
}
