/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a coflow is scheduled while its reducers do not all fit the free slots (section IV-D,
 * multi-wave reducers). The paper names two ways and picks neither: {@code rpc-faithful} takes the
 * second, the first degrading to fair sharing where coflows are wider than the free slots; {@code
 * rpc} a third of this project's, which measured better than both (docs/results.md).
 */
public enum WaveRule {
  /**
   * The coflow stays one unit: the reducers beyond the free slots wait for a later wave, and its
   * estimate, which orders the queue, adds that wave at the whole cluster's incoming bandwidth.
   */
  WHOLE("whole"),
  /**
   * The paper's first option: until the reducers left fit the free slots, they take the slots the
   * served coflows leave (list scheduling) and their flows only the bandwidth those leave (work
   * conservation); only the last wave is planned and ordered by Algorithm 1.
   */
  LAST_WAVE("last-wave"),
  /**
   * The paper's second option: each wave is a coflow of its own, ordered by when the reducers
   * placed now are done; the reducers of later waves count only once they have slots.
   */
  PER_WAVE("per-wave");

  private final String id;

  WaveRule(String id) {
    this.id = id;
  }

  /** The name on the command line. */
  public String id() {
    return id;
  }

  /**
   * The rule named {@code id}.
   *
   * @throws IllegalArgumentException naming {@code id} and the known ones
   */
  public static WaveRule of(String id) {
    for (WaveRule w : values()) {
      if (w.id.equals(id)) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "unknown wave rule \""
            + id
            + "\" (rules: "
            + Arrays.stream(values()).map(WaveRule::id).collect(Collectors.joining(", "))
            + ")");
  }
}
