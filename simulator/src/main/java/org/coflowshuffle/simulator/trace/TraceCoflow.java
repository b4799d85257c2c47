/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.trace;

import java.util.List;

/**
 * One coflow of a Coflow-Benchmark trace line: where its mappers ran and, per reducer, where it ran
 * and how many megabytes it received in all.
 *
 * @param id the trace's coflow id
 * @param arrivalMillis arrival time in milliseconds
 * @param mapperPorts port (rack) of each mapper
 * @param reducerPorts port of each reducer
 * @param reducerMegabytes megabytes each reducer receives (MB = 2^20 bytes)
 */
public record TraceCoflow(
    String id,
    long arrivalMillis,
    List<Integer> mapperPorts,
    List<Integer> reducerPorts,
    List<Double> reducerMegabytes) {

  /** Bytes per megabyte in the trace's convention. */
  public static final double MB = 1 << 20;

  public TraceCoflow {
    mapperPorts = List.copyOf(mapperPorts);
    reducerPorts = List.copyOf(reducerPorts);
    reducerMegabytes = List.copyOf(reducerMegabytes);
  }

  /** Total shuffle bytes of the coflow. */
  public double totalBytes() {
    double mb = 0;
    for (double r : reducerMegabytes) {
      mb += r;
    }
    return mb * MB;
  }
}
