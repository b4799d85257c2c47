/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.List;

/**
 * How one flow was served.
 *
 * @param coflow index of its coflow in the instance
 * @param flow index of the flow within its coflow
 * @param dst host its reducer ran on; a flow with {@code dst == src} is local and has no segments
 * @param segments its piecewise-constant rate, in time order
 */
public record FlowSchedule(int coflow, int flow, int dst, List<Segment> segments) {

  public FlowSchedule {
    segments = List.copyOf(segments);
  }
}
