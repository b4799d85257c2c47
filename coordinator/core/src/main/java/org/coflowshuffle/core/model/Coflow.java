/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.List;

/**
 * A shuffle: all flows between one map stage and its reducers. It is complete only when its last
 * flow is (paper section I), so the scheduler treats it as one unit.
 *
 * @param id name of the coflow
 * @param arrival seconds at which its map output is known and its flows may start
 * @param reducers its reduce tasks
 * @param flows its flows; each names one of {@code reducers} by index (kept as a {@link FlowTable})
 * @param weight its importance against other coflows for the schemes that weigh them ({@code rpc}
 *     and {@code rpc-faithful} order by remaining time over weight; {@code wss-priority},
 *     Orchestra's priority mode, shares links in proportion to it); live, the weight of the Spark
 *     scheduler pool of the job that reads it. 1 unless set
 */
public record Coflow(
    String id, double arrival, List<Reducer> reducers, List<Flow> flows, double weight) {

  public Coflow {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("coflow id must be a non-empty string");
    }
    if (!(arrival >= 0) || Double.isInfinite(arrival)) {
      throw new IllegalArgumentException("coflow " + id + ": arrival " + arrival);
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("coflow " + id + ": weight " + weight);
    }
    reducers = List.copyOf(reducers);
    FlowTable table = FlowTable.copyOf(flows);
    for (int r : table.reducers()) {
      if (r >= reducers.size()) {
        throw new IllegalArgumentException("coflow " + id + ": flow names reducer index " + r);
      }
    }
    flows = table;
  }

  /** The flows as parallel arrays, for loops over many of them. */
  public FlowTable table() {
    return (FlowTable) flows;
  }

  /** A coflow of weight 1. */
  public Coflow(String id, double arrival, List<Reducer> reducers, List<Flow> flows) {
    this(id, arrival, reducers, flows, 1);
  }

  /** The same coflow with another weight. */
  public Coflow withWeight(double w) {
    return new Coflow(id, arrival, reducers, flows, w);
  }

  /** Total bytes of the coflow. */
  public double totalBytes() {
    double sum = 0;
    for (double b : table().sizes()) {
      sum += b;
    }
    return sum;
  }
}
