/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;

/** The RPC paper's Fig. 1 instance, optionally with every reducer pinned. */
final class Fig1 {

  static final double GBIT = 1.25e8; // bytes

  private Fig1() {}

  /** Hosts M1, M2, M3 (indices 0-2) receive; S1-S3 (3-5) only send. */
  static Instance instance(int[] pinC1, int[] pinC2) {
    List<Host> hosts =
        List.of(
            Host.of("M1", 2 * GBIT, 2 * GBIT),
            Host.of("M2", GBIT, GBIT),
            Host.of("M3", GBIT, GBIT),
            Host.sender("S1", 10 * GBIT),
            Host.sender("S2", 10 * GBIT),
            Host.sender("S3", 10 * GBIT));
    return new Instance(
        hosts,
        List.of(
            coflow("C1", new double[] {1, 1.5, 2}, pinC1),
            coflow("C2", new double[] {1.5, 2, 2}, pinC2)));
  }

  static Instance instance() {
    return instance(null, null);
  }

  private static Coflow coflow(String id, double[] gbits, int[] pin) {
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int r = 0; r < gbits.length; r++) {
      reducers.add(new Reducer(id + ".r" + (r + 1), pin == null ? Reducer.NOT_PINNED : pin[r]));
      flows.add(new Flow(3 + r, r, gbits[r] * GBIT));
    }
    return new Coflow(id, 0, reducers, flows);
  }
}
