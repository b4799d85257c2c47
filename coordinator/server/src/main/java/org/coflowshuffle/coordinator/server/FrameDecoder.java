/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.FrameSeal;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * Bytes to messages ({@link FrameCodec}'s layout). The length prefix is checked before the frame is
 * buffered, so an oversize frame costs no memory. The first bad frame is reported upstream as a
 * {@link ProtocolException} and everything after it is discarded, as the connection is closing.
 */
final class FrameDecoder extends ByteToMessageDecoder {

  private final int maxFrameBytes;
  private boolean failed;
  private FrameSeal seal;

  FrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Checks the seal of every frame after this call (on the connection's event loop). */
  void seal(FrameSeal s) {
    seal = s;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws ProtocolException {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < FrameCodec.LENGTH_BYTES) {
      return;
    }
    int length = in.getInt(in.readerIndex());
    try {
      FrameCodec.checkLength(length, maxFrameBytes);
    } catch (ProtocolException e) {
      fail(in);
      throw e;
    }
    if (in.readableBytes() < FrameCodec.LENGTH_BYTES + length) {
      return;
    }
    in.skipBytes(FrameCodec.LENGTH_BYTES);
    int version = in.readUnsignedByte();
    int type = in.readUnsignedByte();
    byte[] body = new byte[length - FrameCodec.HEADER_BYTES];
    in.readBytes(body);
    try {
      out.add(FrameCodec.decode(version, type, body, seal));
    } catch (ProtocolException e) {
      fail(in);
      throw e;
    }
  }

  private void fail(ByteBuf in) {
    failed = true;
    in.skipBytes(in.readableBytes());
  }
}
