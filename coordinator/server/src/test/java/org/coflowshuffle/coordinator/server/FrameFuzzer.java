/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * Seeded random and mutated frames: well-formed messages about a registered application (so that
 * valid ones reach deep into the scheduler), the same with bytes flipped, cut or inserted, random
 * bodies, wrong type ids and versions, hostile JSON, and bad length prefixes. Every frame is whole
 * as its length prefix says, so the server always has a complete frame to judge.
 */
final class FrameFuzzer {

  /** A frame and what the codec alone says about it: the error code, or null if it decodes. */
  record Fuzz(byte[] bytes, ErrorCode expected, String kind) {}

  private final Random random;
  private final int maxFrameBytes;

  FrameFuzzer(long seed, int maxFrameBytes) {
    this.random = new Random(seed);
    this.maxFrameBytes = maxFrameBytes;
  }

  Fuzz next(String app) {
    int kind = random.nextInt(10);
    return switch (kind) {
      case 0, 1 -> judged(FrameCodec.encode(validMessage(app)), "valid");
      case 2, 3 -> {
        Message m = validMessage(app);
        yield judged(frame(1, m.type().id(), mutate(json(m))), "mutated");
      }
      case 4 -> judged(frame(1, randomType(), randomBytes(random.nextInt(300))), "random body");
      case 5 -> judged(frame(1, randomType(), json(validMessage(app))), "wrong type");
      case 6 ->
          judged(frame(random.nextInt(256), randomType(), json(validMessage(app))), "version");
      case 7 -> judged(frame(1, randomType(), hostileJson()), "hostile json");
      case 8 -> {
        Message m = validMessage(app);
        yield judged(frame(1, m.type().id(), mutateFields(m)), "bad fields");
      }
      default -> badLength();
    };
  }

  private Fuzz judged(byte[] frame, String kind) {
    ByteBuffer b = ByteBuffer.wrap(frame);
    int length = b.getInt();
    try {
      FrameCodec.checkLength(length, maxFrameBytes);
      int version = b.get() & 0xff;
      int type = b.get() & 0xff;
      byte[] body = Arrays.copyOfRange(frame, 6, frame.length);
      FrameCodec.decode(version, type, body);
      return new Fuzz(frame, null, kind);
    } catch (ProtocolException e) {
      return new Fuzz(frame, e.code(), kind);
    }
  }

  private Fuzz badLength() {
    int length =
        switch (random.nextInt(4)) {
          case 0 -> maxFrameBytes + 1 + random.nextInt(1 << 20);
          case 1 -> -1 - random.nextInt(Integer.MAX_VALUE);
          case 2 -> random.nextInt(2);
          default -> Integer.MAX_VALUE;
        };
    byte[] frame = ByteBuffer.allocate(4).putInt(length).array();
    return new Fuzz(
        frame, length < 2 && length >= 0 ? ErrorCode.MALFORMED : ErrorCode.OVERSIZE, "length");
  }

  private int randomType() {
    return random.nextInt(4) == 0 ? random.nextInt(256) : 1 + random.nextInt(25);
  }

  private static byte[] frame(int version, int type, byte[] body) {
    return ByteBuffer.allocate(6 + body.length)
        .putInt(2 + body.length)
        .put((byte) version)
        .put((byte) type)
        .put(body)
        .array();
  }

  private static byte[] json(Message m) {
    byte[] f = FrameCodec.encode(m);
    return Arrays.copyOfRange(f, 6, f.length);
  }

  private byte[] mutate(byte[] body) {
    byte[] b = body;
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      int at = b.length == 0 ? 0 : random.nextInt(b.length);
      switch (random.nextInt(5)) {
        case 0 -> {
          if (b.length > 0) {
            b = b.clone();
            b[at] ^= (byte) (1 << random.nextInt(8));
          }
        }
        case 1 -> b = splice(b, at, Math.min(b.length, at + 1 + random.nextInt(8)), new byte[0]);
        case 2 -> b = splice(b, at, at, randomBytes(1 + random.nextInt(8)));
        case 3 -> b = Arrays.copyOf(b, at);
        default -> {
          byte[] digits = String.valueOf(random.nextLong()).getBytes(StandardCharsets.US_ASCII);
          b = splice(b, at, at, digits);
        }
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int from, int to, byte[] insert) {
    byte[] out = new byte[b.length - (to - from) + insert.length];
    System.arraycopy(b, 0, out, 0, from);
    System.arraycopy(insert, 0, out, from, insert.length);
    System.arraycopy(b, to, out, from + insert.length, b.length - to);
    return out;
  }

  private byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private byte[] hostileJson() {
    String s =
        switch (random.nextInt(8)) {
          case 0 -> "[".repeat(2000 + random.nextInt(20000));
          case 1 -> "{\"value\":1e999}";
          case 2 -> "{\"value\":99999999999999999999999}";
          case 3 -> "{\"app\":\"a\",\"app\":\"b\",\"shuffle\":0}";
          case 4 -> "{\"value\":NaN}";
          case 5 -> "{\"app\":\"\\u0000\\uD800\",\"shuffle\":-0}";
          case 6 -> "\"" + "x".repeat(random.nextInt(5000)) + "\"";
          default -> "{\"bytes\":[" + "1,".repeat(random.nextInt(5000)) + "1]}";
        };
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A valid message with one field replaced by a value of the wrong kind. */
  private byte[] mutateFields(Message m) {
    String body = new String(json(m), StandardCharsets.UTF_8);
    String[] bad = {"null", "-1", "\"\"", "[]", "{}", "true", "1.5", "-9223372036854775809"};
    String replaced =
        body.replaceFirst(
            ":(\"[^\"]*\"|-?[0-9.eE+]+|\\[[^\\]]*\\]|null|true|false)",
            ":" + bad[random.nextInt(bad.length)]);
    return replaced.getBytes(StandardCharsets.UTF_8);
  }

  /** A message a client might send, about {@code app}'s shuffles 0-3 on executors 0-3. */
  Message validMessage(String app) {
    int shuffle = random.nextInt(4);
    int reducer = random.nextInt(4);
    String exec = String.valueOf(random.nextInt(4));
    String host = "h" + random.nextInt(4);
    return switch (random.nextInt(16)) {
      case 0 -> new Message.RegisterApp(random.nextBoolean() ? app : app + "-other");
      case 1 ->
          new Message.RegisterShuffle(app, shuffle, 1 + random.nextInt(3), 1 + random.nextInt(3));
      case 2, 3 -> {
        long[] bytes = new long[1 + random.nextInt(3)];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = random.nextInt(3) == 0 ? 0 : random.nextInt(1 << 30);
        }
        yield new Message.MapOutput(app, shuffle, random.nextInt(3), host, exec, bytes);
      }
      case 4 -> {
        List<Message.ExecutorInfo> list = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
          list.add(
              new Message.ExecutorInfo(
                  String.valueOf(i - 1), "h" + random.nextInt(4), 1 + random.nextInt(4)));
        }
        yield new Message.Executors(app, list);
      }
      case 5, 6 -> new Message.PlacementRequest(app, random.nextLong(), new int[] {shuffle});
      case 7, 8 ->
          new Message.RateRequest(app, shuffle, reducer, exec, String.valueOf(random.nextInt(4)));
      case 9 -> new Message.Progress(app, shuffle, reducer, exec, random.nextInt(1 << 28));
      case 10 -> new Message.ReducerDone(app, shuffle, reducer);
      case 11 -> new Message.ShuffleDone(app, shuffle);
      case 12 -> new Message.UnregisterShuffle(app, shuffle);
      case 13 -> new Message.Bandwidth(host, random.nextDouble() * 2e8, random.nextDouble() * 2e8);
      case 14 -> new Message.Ping(-1 - random.nextInt(1000));
      default ->
          switch (random.nextInt(4)) {
            case 0 -> new Message.Hello("again", null);
            case 1 -> new Message.Rates(1, List.of());
            case 2 -> new Message.Welcome("x", "rpc");
            default -> new Message.Pong(1);
          };
    };
  }
}
