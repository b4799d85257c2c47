/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Frames of the coordinator protocol, without any transport:
 *
 * <pre>
 *   int32  length   bytes after this field (big-endian), at most the maximum frame size
 *   uint8  version  {@link #VERSION}
 *   uint8  type     a {@link MessageType} id
 *   bytes  body     the message as UTF-8 JSON
 *   bytes  mac      {@link FrameSeal#MAC_BYTES} bytes, on frames after the hello when the
 *                   coordinator has a secret ({@link FrameSeal}); else absent
 * </pre>
 *
 * Decoding is strict: unknown fields, missing primitive fields, trailing data and values a message
 * refuses are all {@link ErrorCode#MALFORMED}, with a message naming the type and the field.
 */
public final class FrameCodec {

  /** The protocol version this code speaks. */
  public static final int VERSION = 1;

  /** Bytes of the length prefix. */
  public static final int LENGTH_BYTES = 4;

  /** Bytes of version and type, counted in the length. */
  public static final int HEADER_BYTES = 2;

  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .build();

  private FrameCodec() {}

  /** The whole frame of a message, length prefix included, unsealed. */
  public static byte[] encode(Message m) {
    return encode(m, null);
  }

  /** The whole frame of a message, length prefix included, sealed by {@code seal} unless null. */
  public static byte[] encode(Message m, FrameSeal seal) {
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + m.type() + " as JSON", e);
    }
    byte[] mac = seal == null ? new byte[0] : seal.next(VERSION, m.type().id(), body);
    int length = HEADER_BYTES + body.length + mac.length;
    ByteBuffer b = ByteBuffer.allocate(LENGTH_BYTES + length);
    b.putInt(length).put((byte) VERSION).put((byte) m.type().id()).put(body).put(mac);
    return b.array();
  }

  /**
   * Checks a length prefix before its frame is read.
   *
   * @throws ProtocolException {@link ErrorCode#OVERSIZE} when it exceeds {@code maxFrameBytes},
   *     {@link ErrorCode#MALFORMED} when it cannot even hold the header
   */
  public static void checkLength(long length, int maxFrameBytes) throws ProtocolException {
    if (length > maxFrameBytes || length < 0) {
      throw new ProtocolException(
          ErrorCode.OVERSIZE,
          "frame of " + length + " bytes; the limit is " + maxFrameBytes + " bytes");
    }
    if (length < HEADER_BYTES) {
      throw new ProtocolException(
          ErrorCode.MALFORMED, "frame of " + length + " bytes has no version and type");
    }
  }

  /**
   * The message of one frame, given what follows its length prefix.
   *
   * @throws ProtocolException naming what was wrong
   */
  public static Message decode(int version, int typeId, byte[] body) throws ProtocolException {
    return decode(version, typeId, body, null);
  }

  /**
   * The message of one frame sealed by {@code seal} (null: unsealed): its version, type, and the
   * bytes after them, MAC included. The MAC is checked before anything else is read.
   *
   * @throws ProtocolException naming what was wrong
   */
  public static Message decode(int version, int typeId, byte[] rest, FrameSeal seal)
      throws ProtocolException {
    byte[] body = rest;
    if (seal != null) {
      if (rest.length < FrameSeal.MAC_BYTES) {
        throw new ProtocolException(
            ErrorCode.UNAUTHENTICATED,
            "a frame of " + rest.length + " bytes after the hello cannot hold its MAC");
      }
      body = Arrays.copyOf(rest, rest.length - FrameSeal.MAC_BYTES);
      seal.check(version, typeId, body, Arrays.copyOfRange(rest, body.length, rest.length));
    }
    if (version != VERSION) {
      throw new ProtocolException(
          ErrorCode.UNSUPPORTED_VERSION,
          "protocol version " + version + "; this server speaks version " + VERSION);
    }
    MessageType type = MessageType.of(typeId);
    try {
      Message m = JSON.readValue(body, type.body());
      if (m == null) {
        throw new ProtocolException(ErrorCode.MALFORMED, type + ": the body is null");
      }
      return m;
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new ProtocolException(ErrorCode.MALFORMED, type + ": " + cause.getMessage());
    } catch (java.io.IOException e) {
      throw new ProtocolException(ErrorCode.MALFORMED, type + ": " + firstLine(e.getMessage()));
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable body";
    }
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    // Jackson appends where in the source it was, which says nothing without the source.
    int at = line.indexOf(" (start marker at [Source");
    return at < 0 ? line : line.substring(0, at);
  }
}
