/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

/**
 * What a client proves to a coordinator: a secret, under the name of the principal the coordinator
 * knows it by (null for the coordinator's shared secret).
 *
 * @param principal null, or the principal whose secret {@code secret} is
 * @param secret the secret; null for a coordinator without one
 */
public record Credentials(String principal, String secret) {

  /** No credentials: for a coordinator that authenticates nobody. */
  public static final Credentials NONE = new Credentials(null, null);

  public Credentials {
    if (principal != null && secret == null) {
      throw new IllegalArgumentException("principal " + principal + " without a secret");
    }
  }

  /** The coordinator's shared secret, or {@link #NONE} when {@code secret} is null. */
  public static Credentials shared(String secret) {
    return secret == null ? NONE : new Credentials(null, secret);
  }
}
