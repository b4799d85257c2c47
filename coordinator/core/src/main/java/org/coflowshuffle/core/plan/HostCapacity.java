/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

/**
 * Bytes that each candidate host can still receive for one coflow by a deadline: the cumulative
 * form of a host's free incoming bandwidth. With constant bandwidth b_j this is b_j * T, which
 * turns the deadline T into the paper's alpha; with a {@link LinkProfile} it also counts bandwidth
 * that frees up later.
 */
public interface HostCapacity {

  /** Number of hosts, indexed 0..hosts()-1. */
  int hosts();

  /** Bytes host j can receive by {@code deadline}, before this coflow's pinned reducers' share. */
  double bytesBy(int j, double deadline);

  /** Bytes of pinned reducers (of this coflow) that host j must receive anyway. */
  double pinnedBytes(int j);

  /**
   * True when the hosts' order by {@link #bytesBy} is the same for every deadline (constant
   * bandwidths), so it need be sorted only once.
   */
  default boolean fixedOrder() {
    return false;
  }

  /** Constant bandwidths from time 0: the static setting of problems (4)-(6). */
  static HostCapacity constant(double[] bytesPerSec, double[] pinnedBytes) {
    return new HostCapacity() {
      @Override
      public int hosts() {
        return bytesPerSec.length;
      }

      @Override
      public double bytesBy(int j, double deadline) {
        return bytesPerSec[j] * deadline;
      }

      @Override
      public double pinnedBytes(int j) {
        return pinnedBytes[j];
      }

      @Override
      public boolean fixedOrder() {
        return true;
      }
    };
  }
}
