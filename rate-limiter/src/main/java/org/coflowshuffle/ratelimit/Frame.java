/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.apache.spark.network.util.TransportConf;

/**
 * The messages between a fetching reducer and a sender, each the body of one of Spark's one-way
 * messages (Spark's framing carries its length, and its bootstraps authenticate and encrypt the
 * connection): a 1-byte type, then the fields. Strings are a 2-byte length and UTF-8.
 *
 * <pre>
 * FETCH (1)  requestId:long flowId:string blockId:string rate:double   reducer → sender
 * RATE  (2)  flowId:string rate:double                                reducer → sender
 * DATA  (3)  requestId:long length:int; the next message is that many bytes of the block
 * END   (4)  requestId:long totalBytes:long                           sender → reducer
 * ERROR (5)  requestId:long message:string                            sender → reducer
 * ALIVE (6)  (no fields)                                              sender → reducer
 * </pre>
 *
 * A rate is bytes per second: positive, +Infinity for no limit, 0 for paused. A sender with blocks
 * still to send says ALIVE whenever it has sent nothing for a while (a paused flow, a slow rate),
 * so that a reducer can tell a quiet sender from a dead one.
 */
final class Frame {

  static final byte FETCH = 1;
  static final byte RATE = 2;
  static final byte DATA = 3;
  static final byte END = 4;
  static final byte ERROR = 5;
  static final byte ALIVE = 6;

  private Frame() {}

  static ByteBuf fetch(
      ByteBufAllocator a, long requestId, String flowId, String blockId, double rate) {
    ByteBuf b = a.buffer();
    b.writeByte(FETCH).writeLong(requestId);
    writeString(b, flowId);
    writeString(b, blockId);
    return b.writeDouble(rate);
  }

  static ByteBuf rate(ByteBufAllocator a, String flowId, double rate) {
    ByteBuf b = a.buffer();
    b.writeByte(RATE);
    writeString(b, flowId);
    return b.writeDouble(rate);
  }

  /** The header of {@code length} bytes of a block, which the next message carries. */
  static ByteBuf data(ByteBufAllocator a, long requestId, int length) {
    return a.buffer(1 + 8 + 4).writeByte(DATA).writeLong(requestId).writeInt(length);
  }

  /**
   * How often a sender with blocks to send and nothing sent says ALIVE, and a reducer looks for
   * silence: a quarter of Spark's network timeout, at most 5 s, so that a reducer whose timeout is
   * shorter than the sender's still hears it in time.
   */
  static long aliveEveryMs(TransportConf conf) {
    return Math.max(50, Math.min(5_000, conf.connectionTimeoutMs() / 4));
  }

  static ByteBuf alive(ByteBufAllocator a) {
    return a.buffer(1).writeByte(ALIVE);
  }

  static ByteBuf end(ByteBufAllocator a, long requestId, long total) {
    return a.buffer(1 + 16).writeByte(END).writeLong(requestId).writeLong(total);
  }

  static ByteBuf error(ByteBufAllocator a, long requestId, String message) {
    ByteBuf b = a.buffer();
    b.writeByte(ERROR).writeLong(requestId);
    writeString(b, message.length() > 4000 ? message.substring(0, 4000) : message);
    return b;
  }

  static void writeString(ByteBuf b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 0xFFFF) {
      throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long");
    }
    b.writeShort(bytes.length).writeBytes(bytes);
  }

  /**
   * Reads a string.
   *
   * @throws IllegalArgumentException when the message ends before it
   */
  static String readString(ByteBuf b) {
    if (b.readableBytes() < 2) {
      throw new IllegalArgumentException("message ends inside a string length");
    }
    int n = b.readUnsignedShort();
    if (b.readableBytes() < n) {
      throw new IllegalArgumentException(
          "string of " + n + " bytes, message has " + b.readableBytes());
    }
    String s = b.toString(b.readerIndex(), n, StandardCharsets.UTF_8);
    b.skipBytes(n);
    return s;
  }

  /**
   * Reads a rate.
   *
   * @throws IllegalArgumentException for a negative or NaN rate or a short message
   */
  static double readRate(ByteBuf b) {
    if (b.readableBytes() < 8) {
      throw new IllegalArgumentException("message ends before the rate");
    }
    double r = b.readDouble();
    if (!(r >= 0)) {
      throw new IllegalArgumentException("rate must be >= 0 bytes/s, got " + r);
    }
    return r;
  }
}
