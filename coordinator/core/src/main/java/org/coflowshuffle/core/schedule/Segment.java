/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

/** A stretch of constant rate of one flow: {@code [start, end)} at {@code rate} bytes/s. */
public record Segment(double start, double end, double rate) {

  /** Bytes sent during the segment. */
  public double bytes() {
    return (end - start) * rate;
  }
}
