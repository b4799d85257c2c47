/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import java.util.List;
import org.coflowshuffle.core.model.Instance;

/**
 * The outcome of running one scheme on one instance: per coflow its placement and completion, per
 * flow its rates over time. This is what {@code coflow solve} prints.
 */
public record Schedule(
    String scheme, Instance instance, List<CoflowSchedule> coflows, List<FlowSchedule> flows) {

  public Schedule {
    coflows = List.copyOf(coflows);
    flows = List.copyOf(flows);
  }

  /** Mean coflow completion time, 0 for an instance without coflows. */
  public double averageCct() {
    if (coflows.isEmpty()) {
      return 0;
    }
    double sum = 0;
    for (CoflowSchedule c : coflows) {
      sum += c.cct();
    }
    return sum / coflows.size();
  }
}
