/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FrameSealTest {

  private static final String NONCE = HelloProof.nonce();

  /** Decodes a whole frame (length prefix included) with {@code seal}. */
  private static Message open(byte[] frame, FrameSeal seal) throws ProtocolException {
    int at = FrameCodec.LENGTH_BYTES;
    return FrameCodec.decode(
        frame[at], frame[at + 1], Arrays.copyOfRange(frame, at + 2, frame.length), seal);
  }

  private static void assertRefused(byte[] frame, FrameSeal seal) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> open(frame, seal));
    assertEquals(ErrorCode.UNAUTHENTICATED, e.code(), e.getMessage());
  }

  @Test
  void framesSealedInOrderOpenInOrder() throws ProtocolException {
    FrameSeal send = FrameSeal.toServer("s3cret", NONCE);
    FrameSeal read = FrameSeal.toServer("s3cret", NONCE);
    for (int i = 0; i < 3; i++) {
      Message m = new Message.Ping(i);
      assertEquals(m, open(FrameCodec.encode(m, send), read));
    }
  }

  @Test
  void aChangedBitFailsTheCheck() {
    byte[] frame =
        FrameCodec.encode(new Message.RegisterApp("app"), FrameSeal.toServer("s3cret", NONCE));
    for (int i = FrameCodec.LENGTH_BYTES; i < frame.length; i++) {
      byte[] changed = frame.clone();
      changed[i] ^= 0x10;
      assertRefused(changed, FrameSeal.toServer("s3cret", NONCE));
    }
  }

  @Test
  void replayedReorderedReflectedOrForeignFramesFailTheCheck() throws ProtocolException {
    FrameSeal send = FrameSeal.toServer("s3cret", NONCE);
    byte[] first = FrameCodec.encode(new Message.Ping(1), send);
    byte[] second = FrameCodec.encode(new Message.Ping(2), send);

    FrameSeal read = FrameSeal.toServer("s3cret", NONCE);
    open(first, read);
    assertRefused(first, read); // replayed

    assertRefused(second, FrameSeal.toServer("s3cret", NONCE)); // the first one dropped
    assertRefused(first, FrameSeal.toClient("s3cret", NONCE)); // sent back the other way
    assertRefused(first, FrameSeal.toServer("s3cret", HelloProof.nonce())); // another connection
    assertRefused(first, FrameSeal.toServer("other", NONCE)); // another secret
    assertRefused(FrameCodec.encode(new Message.Ping(1)), FrameSeal.toServer("s3cret", NONCE));
  }
}
