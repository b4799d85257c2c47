/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

/**
 * How much of a link the decisions plan on. In a shuffle every machine sends and receives at once,
 * TCP acknowledges what a link carries one way with segments the other way ({@link
 * LinkEstimates#ACKS} of the payload), and the paced transport frames every chunk it sends. A link
 * planned to its full payload speed both ways is asked for more than it carries: its queue fills,
 * holds back the acknowledgements the other direction's flows wait for and drops segments, and both
 * directions then deliver far below the plan, so every end the decisions counted on slips. Planned
 * at {@link #PLANNED_SHARE} of its speed, a link loaded both ways carries its plan.
 */
public final class LinkHeadroom {

  /**
   * Share of a link's payload speed one way that its flows get while it is loaded the other way as
   * well: the rest carries the other direction's acknowledgements.
   */
  public static final double BOTH_WAYS = 1 - LinkEstimates.ACKS;

  /**
   * The paced transport's frames (one per chunk of at least 4 KiB), with as much again to spare.
   */
  private static final double FRAMES = 0.02;

  /**
   * Share of a link's speed each way (configured, its NIC's, or as measured, less other traffic)
   * that the decisions plan on.
   */
  public static final double PLANNED_SHARE = BOTH_WAYS - FRAMES;

  private LinkHeadroom() {}
}
