/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authentication by a shared secret without sending it, both ways: the server sends a fresh random
 * nonce on every connection, the client answers with HMAC-SHA256(secret, "coflow hello " + nonce),
 * and the server's welcome carries HMAC-SHA256(secret, "coflow welcome " + nonce). A proof captured
 * on one connection proves nothing on another, and the labels keep a client's proof from ever
 * serving as the server's (or as the key of {@link FrameSeal}), whatever nonce a fake server sends.
 */
public final class HelloProof {

  private static final SecureRandom RANDOM = new SecureRandom();

  private HelloProof() {}

  /** A fresh nonce, base64 of 32 random bytes. */
  public static String nonce() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }

  /** The proof a client sends for {@code nonce}. */
  public static String prove(String secret, String nonce) {
    return Base64.getEncoder().encodeToString(mac(secret, "coflow hello " + nonce));
  }

  /** The proof the server sends in its welcome for {@code nonce}. */
  public static String proveWelcome(String secret, String nonce) {
    return Base64.getEncoder().encodeToString(mac(secret, "coflow welcome " + nonce));
  }

  /**
   * Whether {@code proof} is the proof for {@code nonce} under {@code secret}, in constant time.
   */
  public static boolean verify(String secret, String nonce, String proof) {
    return matches(mac(secret, "coflow hello " + nonce), proof);
  }

  /** Whether {@code proof} is the welcome's proof for {@code nonce}, in constant time. */
  public static boolean verifyWelcome(String secret, String nonce, String proof) {
    return matches(mac(secret, "coflow welcome " + nonce), proof);
  }

  private static boolean matches(byte[] expected, String proof) {
    if (proof == null) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getDecoder().decode(proof);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(expected, given);
  }

  /** HMAC-SHA256 of {@code text} under {@code secret}. */
  static byte[] mac(String secret, String text) {
    return keyed(secret.getBytes(StandardCharsets.UTF_8))
        .doFinal(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A fresh HMAC-SHA256 under {@code key}. */
  static Mac keyed(byte[] key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }
}
