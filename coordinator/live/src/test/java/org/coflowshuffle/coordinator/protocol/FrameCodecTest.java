/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

  /** One message of every type. */
  static List<Message> samples() {
    return List.of(
        new Message.Challenge(1, "bm9uY2U="),
        new Message.Hello("driver-1", "cHJvb2Y="),
        new Message.Welcome("s1", "rpc"),
        new Message.Error(ErrorCode.MALFORMED, "bad"),
        new Message.Ping(7),
        new Message.Pong(7),
        new Message.RegisterApp("app-1"),
        new Message.RegisterShuffle("app-1", 0, 2, 3),
        new Message.MapOutput("app-1", 0, 1, "h1", "1", new long[] {5, 0, 7}),
        new Message.Executors("app-1", List.of(new Message.ExecutorInfo("1", "h1", 2))),
        new Message.PlacementRequest("app-1", 9, new int[] {0, 1}),
        new Message.Placement("app-1", 9, "rpc", List.of(new Message.ReducerHost("1", "h1")), null),
        new Message.RateRequest("app-1", 0, 2, "1", "2"),
        new Message.Rates(
            3,
            List.of(
                new Message.FlowRate("app-1", 0, 2, "1", 1.5e6),
                new Message.FlowRate("app-1", 0, 1, "1", null))),
        new Message.Progress("app-1", 0, 2, "1", 4096),
        new Message.ReducerDone("app-1", 0, 2),
        new Message.ShuffleDone("app-1", 0),
        new Message.UnregisterShuffle("app-1", 0),
        new Message.Bandwidth("h1", 1e6, 0));
  }

  @Test
  void everyTypeHasASampleAndSurvivesTheRoundTrip() throws ProtocolException {
    List<Message> samples = samples();
    assertEquals(
        Arrays.stream(MessageType.values()).toList(), samples.stream().map(Message::type).toList());
    for (Message m : samples) {
      Message back = decodeFrame(FrameCodec.encode(m));
      assertEquals(m.type(), back.type());
      assertArrayEquals(FrameCodec.encode(m), FrameCodec.encode(back), m.type().toString());
    }
  }

  @Test
  void typeIdsAreUnique() {
    assertEquals(
        MessageType.values().length,
        Arrays.stream(MessageType.values()).mapToInt(MessageType::id).distinct().count());
  }

  @Test
  void theFrameLayoutIsLengthVersionTypeBody() {
    byte[] frame = FrameCodec.encode(new Message.Ping(42));
    ByteBuffer b = ByteBuffer.wrap(frame);
    assertEquals(frame.length - 4, b.getInt());
    assertEquals(FrameCodec.VERSION, b.get());
    assertEquals(MessageType.PING.id(), b.get());
    assertEquals("{\"value\":42}", new String(frame, 6, frame.length - 6, StandardCharsets.UTF_8));
  }

  @Test
  void refusalsNameTheProblem() {
    assertCode(ErrorCode.UNSUPPORTED_VERSION, 2, MessageType.PING.id(), "{\"value\":1}");
    assertCode(ErrorCode.UNKNOWN_TYPE, 1, 99, "{}");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "{\"value\":");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "{\"value\":1} x");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "{\"value\":1,\"other\":2}");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "{}");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "null");
    assertCode(ErrorCode.MALFORMED, 1, MessageType.PING.id(), "");
    ProtocolException e =
        assertCode(
            ErrorCode.MALFORMED,
            1,
            MessageType.MAP_OUTPUT.id(),
            "{\"app\":\"a\",\"shuffle\":0,\"map\":0,\"host\":\"h\",\"executor\":\"1\","
                + "\"bytes\":[1,-2]}");
    assertTrue(e.getMessage().contains("bytes"), e.getMessage());
    e = assertCode(ErrorCode.MALFORMED, 1, MessageType.REGISTER_APP.id(), "{\"app\":\"\"}");
    assertTrue(e.getMessage().startsWith("REGISTER_APP: app"), e.getMessage());
  }

  @Test
  void aPlacementRequestCarriesItsWeightOnlyWhenOneIsGiven() throws ProtocolException {
    byte[] plain = FrameCodec.encode(new Message.PlacementRequest("a", 1, new int[] {0}));
    assertEquals(
        "{\"app\":\"a\",\"request\":1,\"shuffles\":[0],\"taskStarts\":null}",
        new String(plain, 6, plain.length - 6, StandardCharsets.UTF_8),
        "a coordinator older than the field reads it");
    Message back =
        decodeFrame(
            FrameCodec.encode(new Message.PlacementRequest("a", 1, new int[] {0}, null, 2.5)));
    assertEquals(2.5, ((Message.PlacementRequest) back).weightOrOne());
    assertEquals(1.0, ((Message.PlacementRequest) decodeFrame(plain)).weightOrOne());
    for (String weight : List.of("0", "-1", "1e999")) {
      ProtocolException e =
          assertCode(
              ErrorCode.MALFORMED,
              1,
              MessageType.PLACEMENT_REQUEST.id(),
              "{\"app\":\"a\",\"request\":1,\"shuffles\":[0],\"weight\":" + weight + "}");
      assertTrue(e.getMessage().contains("weight"), e.getMessage());
    }
  }

  @Test
  void anApplicationTellsItsLocalityWaitOnlyWhenItHasOne() throws ProtocolException {
    byte[] plain = FrameCodec.encode(new Message.RegisterApp("a"));
    assertEquals(
        "{\"app\":\"a\"}",
        new String(plain, 6, plain.length - 6, StandardCharsets.UTF_8),
        "a coordinator older than the field reads it");
    Message back = decodeFrame(FrameCodec.encode(new Message.RegisterApp("a", 3.0)));
    assertEquals(3.0, ((Message.RegisterApp) back).localityWaitOrZero());
    ProtocolException e =
        assertCode(
            ErrorCode.MALFORMED,
            1,
            MessageType.REGISTER_APP.id(),
            "{\"app\":\"a\",\"localityWait\":-1}");
    assertTrue(e.getMessage().contains("localityWait"), e.getMessage());
  }

  @Test
  void aMapOutputMayLeaveItsSizesOutAndProgressSaysWhenAFlowEnded() throws ProtocolException {
    byte[] sizeless = FrameCodec.encode(new Message.MapOutput("a", 0, 1, "h", "1", null));
    assertEquals(
        "{\"app\":\"a\",\"shuffle\":0,\"map\":1,\"host\":\"h\",\"executor\":\"1\"}",
        new String(sizeless, 6, sizeless.length - 6, StandardCharsets.UTF_8));
    assertEquals(null, ((Message.MapOutput) decodeFrame(sizeless)).bytes());
    byte[] progress = FrameCodec.encode(new Message.Progress("a", 0, 2, "1", 4096));
    assertEquals(
        "{\"app\":\"a\",\"shuffle\":0,\"reducer\":2,\"source\":\"1\",\"bytes\":4096}",
        new String(progress, 6, progress.length - 6, StandardCharsets.UTF_8),
        "a coordinator older than the field reads progress that ends nothing");
    assertEquals(false, ((Message.Progress) decodeFrame(progress)).ended());
    Message done = decodeFrame(FrameCodec.encode(new Message.Progress("a", 0, 2, "1", 0, true)));
    assertEquals(true, ((Message.Progress) done).ended());
  }

  @Test
  void lengthsAreCheckedBeforeTheFrameIsRead() throws ProtocolException {
    FrameCodec.checkLength(100, 100);
    assertEquals(
        ErrorCode.OVERSIZE,
        assertThrows(ProtocolException.class, () -> FrameCodec.checkLength(101, 100)).code());
    assertEquals(
        ErrorCode.OVERSIZE,
        assertThrows(ProtocolException.class, () -> FrameCodec.checkLength(-1, 100)).code());
    assertEquals(
        ErrorCode.MALFORMED,
        assertThrows(ProtocolException.class, () -> FrameCodec.checkLength(1, 100)).code());
  }

  /** docs/protocol.md shows every message, under its id, with examples that decode. */
  @Test
  void theProtocolPageShowsEveryMessageWithAValidExample() throws Exception {
    String doc = Files.readString(Path.of("../..", "docs", "protocol.md"));
    Matcher m =
        Pattern.compile("### ([A-Z_]+) \\(id (\\d+),[^\\n]*\\n((?:(?!###)[\\s\\S])*)").matcher(doc);
    Set<MessageType> shown = EnumSet.noneOf(MessageType.class);
    while (m.find()) {
      MessageType t = MessageType.valueOf(m.group(1));
      assertEquals(t.id(), Integer.parseInt(m.group(2)), t.toString());
      Matcher example = Pattern.compile("```json\\n(.*)\\n```").matcher(m.group(3));
      while (example.find()) {
        Message decoded =
            FrameCodec.decode(
                FrameCodec.VERSION, t.id(), example.group(1).getBytes(StandardCharsets.UTF_8));
        assertEquals(t, decoded.type());
        shown.add(t);
      }
    }
    assertEquals(EnumSet.allOf(MessageType.class), shown);
  }

  static Message decodeFrame(byte[] frame) throws ProtocolException {
    ByteBuffer b = ByteBuffer.wrap(frame);
    int length = b.getInt();
    FrameCodec.checkLength(length, Integer.MAX_VALUE);
    int version = b.get() & 0xff;
    int type = b.get() & 0xff;
    byte[] body = new byte[length - 2];
    b.get(body);
    return FrameCodec.decode(version, type, body);
  }

  private static ProtocolException assertCode(ErrorCode code, int version, int type, String body) {
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> FrameCodec.decode(version, type, body.getBytes(StandardCharsets.UTF_8)),
            body);
    assertEquals(code, e.code(), e.getMessage());
    return e;
  }
}
