/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One connection of the sending side: blocks are sent one after another in the order asked, each in
 * chunks handed to the socket when its flow's {@link Pacer} allows, straight from the file
 * (zero-copy). A bad frame is answered with an ERROR naming what was wrong, then the connection is
 * closed. All state is touched only on the connection's event loop.
 */
final class SenderHandler extends ChannelInboundHandlerAdapter {

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

  private final BlockSource source;
  private final Map<String, Pacer> pacers = new HashMap<>();
  private final ArrayDeque<Transfer> queue = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private ScheduledFuture<?> wakeUp;

  SenderHandler(BlockSource source) {
    this.source = source;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    long requestId = -1;
    try {
      byte type = frame.readByte();
      switch (type) {
        case Frame.FETCH -> {
          requestId = frame.readLong();
          String flow = Frame.readString(frame);
          String block = Frame.readString(frame);
          double rate = Frame.readRate(frame);
          BlockSource.Segment segment;
          try {
            segment = source.resolve(block);
          } catch (IOException e) {
            ctx.writeAndFlush(
                Frame.error(ctx.alloc(), requestId, "block " + block + ": " + e.getMessage()));
            return; // an unknown block is the caller's problem, not the connection's
          }
          Pacer pacer = pacers.get(flow);
          long now = System.nanoTime();
          if (pacer == null) {
            pacers.put(flow, pacer = new Pacer(rate, now));
          } else if (pacer.rate() != rate) {
            pacer.setRate(rate, now);
          }
          queue.add(new Transfer(requestId, pacer, segment));
          send();
        }
        case Frame.RATE -> {
          String flow = Frame.readString(frame);
          double rate = Frame.readRate(frame);
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
        default -> throw new IllegalArgumentException("unknown frame type " + type);
      }
    } catch (RuntimeException e) { // malformed: say what, then close
      ctx.writeAndFlush(Frame.error(ctx.alloc(), requestId, "bad frame: " + e.getMessage()))
          .addListener(ChannelFutureListener.CLOSE);
    } finally {
      frame.release();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      send();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }

  /** Sends chunks while the pacer and the socket allow; schedules itself to go on later. */
  private void send() {
    boolean wrote = false;
    while (!queue.isEmpty() && wakeUp == null && ctx.channel().isWritable()) {
      Transfer t = queue.peek();
      long left = t.segment.length() - t.sent;
      if (left == 0) {
        queue.poll();
        ctx.write(Frame.end(ctx.alloc(), t.requestId, t.sent));
        wrote = true;
        continue;
      }
      long delay = t.pacer.delayNanos(System.nanoTime());
      if (delay == Long.MAX_VALUE) {
        break; // paused until a RATE frame
      }
      if (delay > 0) {
        wakeUp =
            ctx.executor()
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
      ctx.write(Frame.dataHeader(ctx.alloc(), t.requestId, n));
      ctx.write(new DefaultFileRegion(t.segment.file(), t.segment.offset() + t.sent, n));
      t.sent += n;
      t.pacer.sent(n);
      wrote = true;
      if (t.pacer.rate() != Pacer.UNLIMITED) { // a paced chunk leaves now: its time is the pacer's
        ctx.flush();
        wrote = false;
      }
    }
    if (wrote) {
      ctx.flush();
    }
  }
}
