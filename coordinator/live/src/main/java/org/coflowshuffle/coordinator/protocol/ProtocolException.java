/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

/** A frame or message the protocol refuses, with the code and one line saying what was wrong. */
public final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public ProtocolException(ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }

  /** The error message to send back. */
  public Message.Error toMessage() {
    return new Message.Error(code, getMessage());
  }
}
