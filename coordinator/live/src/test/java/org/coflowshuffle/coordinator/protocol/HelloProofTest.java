/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HelloProofTest {

  @Test
  void aProofHoldsForItsNonceAndSecretOnly() {
    String nonce = HelloProof.nonce();
    String proof = HelloProof.prove("s3cret", nonce);
    assertTrue(HelloProof.verify("s3cret", nonce, proof));
    assertFalse(HelloProof.verify("other", nonce, proof));
    assertFalse(HelloProof.verify("s3cret", HelloProof.nonce(), proof));
    assertFalse(HelloProof.verify("s3cret", nonce, null));
    assertFalse(HelloProof.verify("s3cret", nonce, "not base64!"));
    assertFalse(HelloProof.verify("s3cret", nonce, ""));
  }

  @Test
  void aClientsProofNeverPassesForTheServersWhateverNonceAFakeServerSends() {
    String nonce = HelloProof.nonce();
    String welcome = HelloProof.proveWelcome("s3cret", nonce);
    assertTrue(HelloProof.verifyWelcome("s3cret", nonce, welcome));
    assertFalse(HelloProof.verifyWelcome("s3cret", nonce, HelloProof.prove("s3cret", nonce)));
    // A client's proof for a crafted nonce is still not the welcome of the real one.
    assertFalse(
        HelloProof.verifyWelcome(
            "s3cret", nonce, HelloProof.prove("s3cret", "coflow welcome " + nonce)));
    assertFalse(HelloProof.verify("s3cret", nonce, welcome));
  }

  @Test
  void noncesDoNotRepeat() {
    assertNotEquals(HelloProof.nonce(), HelloProof.nonce());
  }
}
