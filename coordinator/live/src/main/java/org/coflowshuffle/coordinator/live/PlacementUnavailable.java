/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

/** Why a shuffle cannot be placed now, in one line; the caller keeps Spark's own placement. */
public final class PlacementUnavailable extends Exception {
  private static final long serialVersionUID = 1L;

  public PlacementUnavailable(String reason) {
    super(reason);
  }
}
