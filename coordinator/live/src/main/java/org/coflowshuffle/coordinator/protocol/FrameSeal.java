/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import javax.crypto.Mac;

/**
 * Integrity of the frames of one direction of one connection after the hello, when the coordinator
 * has a secret: each frame ends with {@link #MAC_BYTES} of HMAC-SHA256, under a key drawn from the
 * secret and the connection's nonce, over the direction, the frame's sequence number in that
 * direction, its version, type and body. A frame changed, dropped from the middle, replayed,
 * reordered, reflected back, or carried over from another connection fails the check. The frames
 * are not encrypted: they hold sizes and rates, not data.
 *
 * <p>Not thread-safe: one direction of one connection, used by the one thread that writes or reads
 * it.
 */
public final class FrameSeal {

  /** Bytes of the MAC at the end of a sealed frame. */
  public static final int MAC_BYTES = 32;

  private static final byte TO_SERVER = 'C';
  private static final byte TO_CLIENT = 'S';

  private final Mac mac;
  private final byte direction;
  private long sequence;

  private FrameSeal(String secret, String nonce, byte direction) {
    this.direction = direction;
    mac = HelloProof.keyed(HelloProof.mac(secret, "coflow session " + nonce));
  }

  /** The seal of what a client sends on the connection whose challenge held {@code nonce}. */
  public static FrameSeal toServer(String secret, String nonce) {
    return new FrameSeal(secret, nonce, TO_SERVER);
  }

  /** The seal of what the server sends on the connection whose challenge held {@code nonce}. */
  public static FrameSeal toClient(String secret, String nonce) {
    return new FrameSeal(secret, nonce, TO_CLIENT);
  }

  /** The MAC of the next frame. */
  public byte[] next(int version, int type, byte[] body) {
    return compute(version, type, body);
  }

  /**
   * Checks the MAC of the next frame, in constant time.
   *
   * @throws ProtocolException {@link ErrorCode#UNAUTHENTICATED} when it does not match
   */
  public void check(int version, int type, byte[] body, byte[] given) throws ProtocolException {
    long number = sequence;
    if (!MessageDigest.isEqual(compute(version, type, body), given)) {
      throw new ProtocolException(
          ErrorCode.UNAUTHENTICATED,
          "frame "
              + number
              + " after the hello fails its integrity check: changed, replayed, out of order,"
              + " or sealed with another secret");
    }
  }

  private byte[] compute(int version, int type, byte[] body) {
    mac.update(
        ByteBuffer.allocate(11)
            .put(direction)
            .putLong(sequence++)
            .put((byte) version)
            .put((byte) type)
            .array());
    return mac.doFinal(body);
  }
}
