/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/**
 * Section IV-D's local-reducer rule in {@code rpc-faithful}: a reducer goes to the host holding
 * most of its input only where one holds more than half of it. Three hosts of 100 MB/s each way
 * send and may run reducers.
 */
class LocalReducerRuleTest {

  private static final List<Host> HOSTS =
      List.of(Host.of("h0", 1e8, 1e8), Host.of("h1", 1e8, 1e8), Host.of("h2", 1e8, 1e8));

  @Test
  void inputSpreadEvenlyLeavesPlacementToAlgorithm2() {
    // Three reducers, each with 100 MB on every host. Taken as "the largest share", the rule
    // would put all three on h0, the first of three equal sources: 600 MB into h0, 6 s. No host
    // holds most of any reducer's input, so Algorithm 2 spreads them: 200 MB in and out of each
    // host, 2 s.
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int n = 0; n < 3; n++) {
      reducers.add(Reducer.free("r" + n));
      for (int h = 0; h < 3; h++) {
        flows.add(new Flow(h, n, 1e8));
      }
    }
    Instance inst = new Instance(HOSTS, List.of(new Coflow("even", 0, reducers, flows)));
    Schedule s = PaperExamples.run("even input", "rpc-faithful", inst);
    int[] hosts = s.coflows().get(0).hostOf().clone();
    Arrays.sort(hosts);
    assertArrayEquals(new int[] {0, 1, 2}, hosts);
    assertEquals(2.0, s.coflows().get(0).cct(), 1e-9);
  }

  @Test
  void aHostWithMostOfTheInputTakesTheReducer() {
    // 300 MB on h1, 100 MB on h0: the reducer goes to h1 and fetches 100 MB, 1 s.
    Instance inst =
        new Instance(
            HOSTS,
            List.of(
                new Coflow(
                    "local",
                    0,
                    List.of(Reducer.free("r")),
                    List.of(new Flow(0, 0, 1e8), new Flow(1, 0, 3e8)))));
    Schedule s = PaperExamples.run("most input", "rpc-faithful", inst);
    assertEquals(1, s.coflows().get(0).hostOf()[0]);
    assertEquals(1.0, s.coflows().get(0).cct(), 1e-9);
  }
}
