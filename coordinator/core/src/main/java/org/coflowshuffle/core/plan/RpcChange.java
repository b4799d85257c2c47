/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The ways scheme {@code rpc} goes beyond the paper (docs/algorithms.md, "Where rpc goes beyond the
 * paper", in the same order), each of which can be left out alone (scheme {@code rpc-without-<id>})
 * so that what it buys is measured with everything else held.
 */
public enum RpcChange {
  /** 1: relaxation (6) on the bandwidth as it frees over time, not IV-C's two constant cases. */
  TIMED_PLACEMENT("timed-placement"),
  /** 2: list scheduling and local search beside Algorithm 2, the best estimate kept. */
  CANDIDATES("candidates"),
  /** 3: each receiver uses all bandwidth left to it, not Algorithm 3's r_k f. */
  RECEIVER_RATES("receiver-rates"),
  /** 4: no reducer where it alone outlasts its coflow's bound by far ({@link SlowHostRule}). */
  SLOW_HOST_RULE("slow-host-rule"),
  /** 5: Algorithm 1 stops planning once no coflow left may receive now. */
  EARLY_STOP("early-stop");

  private final String id;

  RpcChange(String id) {
    this.id = id;
  }

  /** The name in {@code rpc-without-<id>}. */
  public String id() {
    return id;
  }

  /**
   * The change named {@code id}.
   *
   * @throws IllegalArgumentException naming {@code id} and the known ones
   */
  public static RpcChange of(String id) {
    for (RpcChange c : values()) {
      if (c.id.equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown change \""
            + id
            + "\" (changes: "
            + Arrays.stream(values()).map(RpcChange::id).collect(Collectors.joining(", "))
            + ")");
  }
}
