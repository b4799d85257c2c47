/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

/** Why the server refused a frame; sent in an {@link Message.Error} before it closes. */
public enum ErrorCode {
  /** The length prefix is larger than the configured maximum, or negative. */
  OVERSIZE,
  /** The frame's version is not one this server speaks. */
  UNSUPPORTED_VERSION,
  /** The type id is not a {@link MessageType}. */
  UNKNOWN_TYPE,
  /** The body is not the JSON of its type, or a field is missing or out of range. */
  MALFORMED,
  /** The message is not allowed now: before the hello, a second hello, an unregistered shuffle. */
  OUT_OF_ORDER,
  /** The hello's proof does not match the service's secret. */
  UNAUTHENTICATED,
  /**
   * A message a client may not send: one the server sends (such as rates), or one about an
   * application another connection registered.
   */
  NOT_ALLOWED,
  /**
   * The message would take the connection's state past the service's limit per client ({@code
   * coflow.coordinator.maxEntriesPerClient}).
   */
  LIMIT,
  /** The server failed on a valid message; its log has the details. */
  INTERNAL
}
