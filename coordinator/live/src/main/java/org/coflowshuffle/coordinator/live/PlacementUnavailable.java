/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

/**
 * Why a shuffle cannot be placed now, in one line and as a {@link Cause} for counting; the caller
 * keeps Spark's own placement.
 */
public final class PlacementUnavailable extends Exception {
  private static final long serialVersionUID = 1L;

  /** What kept the placement from being made, for metrics by cause. */
  public enum Cause {
    /** Map output sizes are missing or do not match the shuffle: no size report for a map. */
    MAP_OUTPUT,
    /** No executor is registered to place on. */
    NO_EXECUTORS,
    /** The scheme could not place every task. */
    SCHEME,
    /** Spark reads the shuffle in a way placement does not cover (adaptive execution's reads). */
    SPARK_READ,
    /**
     * Adaptive execution's local shuffle reader reads the shuffle where its map output is: no flow
     * crosses the network, so there is nothing to place and nothing lost.
     */
    LOCAL_READ,
    /**
     * The standalone coordinator is unreachable or slow, or could not place (its reason says why).
     */
    COORDINATOR
  }

  private final Cause cause;

  public PlacementUnavailable(Cause cause, String reason) {
    super(reason);
    this.cause = cause;
  }

  public Cause cause() {
    return cause;
  }
}
