/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The wire format between a fetching reducer and a sending executor: each frame is a 4-byte length
 * (of what follows), a 1-byte type, then the body. Strings are a 2-byte length and UTF-8.
 *
 * <pre>
 * FETCH (1)  requestId:long flowId:string blockId:string rate:double   reducer → sender
 * RATE  (2)  flowId:string rate:double                                reducer → sender
 * DATA  (3)  requestId:long bytes...                                  sender → reducer
 * END   (4)  requestId:long totalBytes:long                           sender → reducer
 * ERROR (5)  requestId:long message:string                            sender → reducer
 * </pre>
 *
 * A rate is bytes per second: positive, +Infinity for no limit, 0 for paused.
 */
final class Frame {

  static final byte FETCH = 1;
  static final byte RATE = 2;
  static final byte DATA = 3;
  static final byte END = 4;
  static final byte ERROR = 5;

  /** Largest frame a peer accepts from the other side, except DATA, whose bytes follow. */
  static final int MAX_CONTROL_FRAME = 64 * 1024;

  /** Bytes of a DATA frame before its payload: length, type, request id. */
  static final int DATA_HEADER = 4 + 1 + 8;

  private Frame() {}

  static ByteBuf fetch(
      ByteBufAllocator a, long requestId, String flowId, String blockId, double rate) {
    ByteBuf b = a.buffer();
    b.writeInt(0).writeByte(FETCH).writeLong(requestId);
    writeString(b, flowId);
    writeString(b, blockId);
    b.writeDouble(rate);
    return withLength(b);
  }

  static ByteBuf rate(ByteBufAllocator a, String flowId, double rate) {
    ByteBuf b = a.buffer();
    b.writeInt(0).writeByte(RATE);
    writeString(b, flowId);
    b.writeDouble(rate);
    return withLength(b);
  }

  /** The header of a DATA frame whose {@code payload} bytes are written next. */
  static ByteBuf dataHeader(ByteBufAllocator a, long requestId, int payload) {
    return a.buffer(DATA_HEADER).writeInt(1 + 8 + payload).writeByte(DATA).writeLong(requestId);
  }

  static ByteBuf end(ByteBufAllocator a, long requestId, long total) {
    return a.buffer(4 + 1 + 16)
        .writeInt(1 + 16)
        .writeByte(END)
        .writeLong(requestId)
        .writeLong(total);
  }

  static ByteBuf error(ByteBufAllocator a, long requestId, String message) {
    ByteBuf b = a.buffer();
    b.writeInt(0).writeByte(ERROR).writeLong(requestId);
    writeString(b, message.length() > 4000 ? message.substring(0, 4000) : message);
    return withLength(b);
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
   * @throws IllegalArgumentException when the frame ends before it
   */
  static String readString(ByteBuf b) {
    if (b.readableBytes() < 2) {
      throw new IllegalArgumentException("frame ends inside a string length");
    }
    int n = b.readUnsignedShort();
    if (b.readableBytes() < n) {
      throw new IllegalArgumentException(
          "string of " + n + " bytes, frame has " + b.readableBytes());
    }
    String s = b.toString(b.readerIndex(), n, StandardCharsets.UTF_8);
    b.skipBytes(n);
    return s;
  }

  /**
   * Reads a rate.
   *
   * @throws IllegalArgumentException for a negative or NaN rate or a short frame
   */
  static double readRate(ByteBuf b) {
    if (b.readableBytes() < 8) {
      throw new IllegalArgumentException("frame ends before the rate");
    }
    double r = b.readDouble();
    if (!(r >= 0)) {
      throw new IllegalArgumentException("rate must be >= 0 bytes/s, got " + r);
    }
    return r;
  }

  private static ByteBuf withLength(ByteBuf b) {
    return b.setInt(0, b.readableBytes() - 4);
  }
}
