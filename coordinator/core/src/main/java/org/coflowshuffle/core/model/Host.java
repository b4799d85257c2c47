/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

/**
 * One host of the cluster as the scheduler sees it: the bandwidth left for coflows on its two links
 * (the paper's b_in_j and b_out_u, section II-B: the fabric is one non-blocking switch, so only
 * these last-hop links can be bottlenecks) and its room for reducers (section IV-D).
 *
 * @param id unique name of the host
 * @param inBytesPerSec bandwidth of the incoming link, bytes per second, at least 0
 * @param outBytesPerSec bandwidth of the outgoing link, bytes per second, at least 0
 * @param reducerSlots most reducers of all coflows that may run here at once; {@link
 *     #UNLIMITED_SLOTS} for no limit
 * @param canHostReducers false for hosts that only send map output
 */
public record Host(
    String id,
    double inBytesPerSec,
    double outBytesPerSec,
    int reducerSlots,
    boolean canHostReducers) {

  /** Slot count meaning "no limit". */
  public static final int UNLIMITED_SLOTS = Integer.MAX_VALUE;

  public Host {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("host id must be a non-empty string");
    }
    if (!(inBytesPerSec >= 0) || Double.isInfinite(inBytesPerSec)) {
      throw new IllegalArgumentException("host " + id + ": inBytesPerSec " + inBytesPerSec);
    }
    if (!(outBytesPerSec >= 0) || Double.isInfinite(outBytesPerSec)) {
      throw new IllegalArgumentException("host " + id + ": outBytesPerSec " + outBytesPerSec);
    }
    if (reducerSlots < 0) {
      throw new IllegalArgumentException("host " + id + ": reducerSlots " + reducerSlots);
    }
  }

  /** A host with unlimited reducer slots that may host reducers. */
  public static Host of(String id, double inBytesPerSec, double outBytesPerSec) {
    return new Host(id, inBytesPerSec, outBytesPerSec, UNLIMITED_SLOTS, true);
  }

  /** A host that only sends (a mapper host), with the same bandwidth both ways. */
  public static Host sender(String id, double bytesPerSec) {
    return new Host(id, bytesPerSec, bytesPerSec, UNLIMITED_SLOTS, false);
  }

  /**
   * Reducer slots left when {@code inUse} are taken: 0 for a host that may not run reducers, {@link
   * Integer#MAX_VALUE} for unlimited slots.
   */
  public int freeSlots(int inUse) {
    if (!canHostReducers) {
      return 0;
    }
    return reducerSlots == UNLIMITED_SLOTS ? Integer.MAX_VALUE : Math.max(0, reducerSlots - inUse);
  }

  /** True when this host can take a reducer at all. */
  public boolean acceptsReducers() {
    return canHostReducers && reducerSlots > 0;
  }
}
