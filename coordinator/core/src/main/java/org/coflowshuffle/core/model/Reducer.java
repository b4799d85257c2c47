/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

/**
 * A reduce task of a coflow: the destination of the flows that name it.
 *
 * @param id unique within the instance
 * @param pinnedHost index of the host it already runs on (paper IV-D, "started reducer"), or {@link
 *     #NOT_PINNED}
 */
public record Reducer(String id, int pinnedHost) {

  /** Marks a reducer whose host is still to be chosen. */
  public static final int NOT_PINNED = -1;

  public Reducer {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("reducer id must be a non-empty string");
    }
    if (pinnedHost < NOT_PINNED) {
      throw new IllegalArgumentException("reducer " + id + ": pinnedHost " + pinnedHost);
    }
  }

  /** A reducer whose host is free to choose. */
  public static Reducer free(String id) {
    return new Reducer(id, NOT_PINNED);
  }

  public boolean isPinned() {
    return pinnedHost != NOT_PINNED;
  }
}
