/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.junit.jupiter.api.Test;

/** The pooled SRPT bound: by hand where it is known, and never above what a scheme achieves. */
class PooledSrptBoundTest {

  private static Coflow oneFlow(String id, double arrival, int src, double bytes) {
    return new Coflow(
        id, arrival, List.of(Reducer.free(id + ".r")), List.of(new Flow(src, 0, bytes)));
  }

  private static final List<Host> ONE_RECEIVER =
      List.of(Host.sender("s", 1e6), Host.of("r", 100, 100));

  @Test
  void shortestFirstOnThePooledLink() {
    // 100 B and 300 B at 0 through 100 B/s: 1 s, then 4 s.
    Instance i =
        new Instance(ONE_RECEIVER, List.of(oneFlow("B", 0, 0, 300), oneFlow("A", 0, 0, 100)));
    assertEquals(5, PooledSrptBound.sumOfCcts(i), 1e-9);
  }

  @Test
  void aShorterArrivalPreempts() {
    // 300 B at 0 has 200 B left when 100 B arrives at 1 s: that one ends at 2 s, the first at 4 s.
    Instance i =
        new Instance(ONE_RECEIVER, List.of(oneFlow("B", 0, 0, 300), oneFlow("A", 1, 0, 100)));
    assertEquals(1 + 4, PooledSrptBound.sumOfCcts(i), 1e-9);
  }

  @Test
  void bytesThatCanStayLocalCostNothing() {
    // The reducer's whole input is on a host that may run it.
    Instance i = new Instance(ONE_RECEIVER, List.of(oneFlow("A", 0, 1, 500)));
    assertEquals(0, PooledSrptBound.sumOfCcts(i), 1e-9);
  }

  @Test
  void aReducerPinnedToASendOnlyHostReceivesThere() {
    // Pinned to the sender, which may not run reducers: its input from there stays local, and
    // what comes from elsewhere enters through the sender's 1e6 B/s, not just the 100 B/s host.
    List<Host> hosts =
        List.of(Host.sender("s", 1e6), Host.sender("t", 1e6), Host.of("r", 100, 100));
    Coflow local = new Coflow("L", 0, List.of(new Reducer("L.r", 0)), List.of(new Flow(0, 0, 500)));
    assertEquals(0, PooledSrptBound.sumOfCcts(new Instance(hosts, List.of(local))), 1e-12);
    Coflow remote =
        new Coflow("R", 0, List.of(new Reducer("R.r", 0)), List.of(new Flow(1, 0, 1_000_100)));
    assertEquals(1, PooledSrptBound.sumOfCcts(new Instance(hosts, List.of(remote))), 1e-9);
  }

  @Test
  void noSchemeBeatsIt() {
    Random rnd = new Random(3);
    double[] gbps = {0.1, 0.5, 1, 10};
    for (int trial = 0; trial < 40; trial++) {
      List<Host> hosts = new ArrayList<>();
      int senders = 1 + rnd.nextInt(3);
      int receivers = 1 + rnd.nextInt(4);
      for (int u = 0; u < senders; u++) {
        hosts.add(Host.sender("s" + u, gbps[rnd.nextInt(gbps.length)] * 1.25e8));
      }
      for (int j = 0; j < receivers; j++) {
        double b = gbps[rnd.nextInt(gbps.length)] * 1.25e8;
        hosts.add(new Host("r" + j, b, b, Host.UNLIMITED_SLOTS, true));
      }
      List<Coflow> coflows = new ArrayList<>();
      for (int c = 0; c < 2 + rnd.nextInt(5); c++) {
        List<Reducer> reducers = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        for (int r = 0; r < 1 + rnd.nextInt(3); r++) {
          reducers.add(Reducer.free("c" + c + "r" + r));
          for (int u = 0; u < senders + receivers; u++) { // receivers send too: some bytes local
            if (rnd.nextBoolean()) {
              flows.add(new Flow(u, r, 1e6 + rnd.nextDouble() * 1e8));
            }
          }
        }
        coflows.add(new Coflow("c" + c, rnd.nextDouble() * 2, reducers, flows));
      }
      Instance inst = new Instance(hosts, coflows);
      double bound = PooledSrptBound.sumOfCcts(inst);
      for (String scheme : new String[] {"rpc", "neat", "varys", "fair"}) {
        double sum = 0;
        for (double cct : Simulation.run(inst, scheme, SchemeOptions.defaults()).cct()) {
          sum += cct;
        }
        assertTrue(
            sum >= bound * (1 - 1e-9), scheme + " trial " + trial + ": " + sum + " < " + bound);
      }
    }
  }
}
