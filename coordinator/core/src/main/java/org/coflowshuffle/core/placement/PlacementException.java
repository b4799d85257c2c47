/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

/** A placement could not be computed; the message says which problem and why. */
public class PlacementException extends RuntimeException {
  public PlacementException(String message) {
    super(message);
  }

  public PlacementException(String message, Throwable cause) {
    super(message, cause);
  }
}
