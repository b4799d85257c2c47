/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.RemainingTotals;
import org.junit.jupiter.api.Test;

/**
 * A coflow's loads per link: from the kept totals where no flow is local, which must equal the pass
 * over every flow, and from that pass where some flow is.
 */
class BandwidthTest {

  private static ActiveCoflow active(
      Coflow c, double[] remaining, int[] hostOf, RemainingTotals totals) {
    return new ActiveCoflow(
        0,
        c,
        remaining,
        0,
        hostOf,
        new boolean[hostOf.length],
        0,
        0,
        c.table().sources(),
        c.table().reducers(),
        totals);
  }

  /** The coflow with its totals kept, as the runner keeps them. */
  private static ActiveCoflow kept(Coflow c, double[] remaining, int[] hostOf) {
    RemainingTotals totals =
        RemainingTotals.of(remaining, c.table().reducers(), c.table().sources(), hostOf.length, 8);
    return active(c, remaining, hostOf, totals);
  }

  @Test
  void loadsFromTheTotalsEqualThePassOverTheFlows() {
    Random rnd = new Random(3);
    for (int trial = 0; trial < 500; trial++) {
      // hosts 0-3 receive, 4-7 send; with a trial in four a reducer sits on a sender
      int reducers = 1 + rnd.nextInt(6);
      Reducer[] rs = new Reducer[reducers];
      int[] hostOf = new int[reducers];
      Flow[] flows = new Flow[reducers * 4];
      double[] remaining = new double[flows.length];
      for (int r = 0; r < reducers; r++) {
        rs[r] = Reducer.free("r" + r);
        hostOf[r] = trial % 4 == 0 && r == 0 ? 4 + rnd.nextInt(4) : rnd.nextInt(4);
        for (int u = 0; u < 4; u++) {
          int k = 4 * r + u;
          flows[k] = new Flow(4 + u, r, 1 + rnd.nextInt(1_000_000));
          remaining[k] = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * flows[k].bytes();
        }
      }
      Coflow c = new Coflow("c", 0, List.of(rs), List.of(flows));
      double[] in = new double[8];
      double[] out = new double[8];
      Bandwidth.loads(kept(c, remaining, hostOf), hostOf, in, out);
      double[] inByFlow = new double[8];
      double[] outByFlow = new double[8];
      Bandwidth.loads(active(c, remaining, hostOf, null), hostOf, inByFlow, outByFlow);
      for (int j = 0; j < 8; j++) {
        assertEquals(inByFlow[j], in[j], 1e-12 * inByFlow[j], "trial " + trial + " in " + j);
        assertEquals(outByFlow[j], out[j], 1e-12 * outByFlow[j], "trial " + trial + " out " + j);
      }
    }
  }

  @Test
  void aLocalFlowLoadsNoLinkAndTheTotalsAreReadOnlyWhereNoneIs() {
    // reducer 0 on host 0, which also sends it 5 bytes (local) and reducer 1 on host 1 7 bytes;
    // host 2 sends 3 bytes to each
    Coflow c =
        new Coflow(
            "c",
            0,
            List.of(Reducer.free("r0"), Reducer.free("r1")),
            List.of(new Flow(0, 0, 5), new Flow(0, 1, 7), new Flow(2, 0, 3), new Flow(2, 1, 3)));
    double[] remaining = {5, 7, 3, 3};
    double[] in = new double[8];
    double[] out = new double[8];
    Bandwidth.loads(kept(c, remaining, new int[] {0, 1}), new int[] {0, 1}, in, out);
    assertArrayEquals(new double[] {3, 10, 0, 0, 0, 0, 0, 0}, in, 0);
    assertArrayEquals(new double[] {7, 0, 6, 0, 0, 0, 0, 0}, out, 0);
    // on hosts 3 and 4 nothing is local: totals doubled on purpose show they are what is read
    RemainingTotals doubled = new RemainingTotals(new double[] {16, 20}, new double[8]);
    doubled.perSource()[0] = 24;
    doubled.perSource()[2] = 12;
    ActiveCoflow withDoubled = active(c, remaining, new int[] {3, 4}, doubled);
    in = new double[8];
    out = new double[8];
    Bandwidth.loads(withDoubled, new int[] {3, 4}, in, out);
    assertArrayEquals(new double[] {0, 0, 0, 16, 20, 0, 0, 0}, in, 0);
    assertArrayEquals(new double[] {24, 0, 12, 0, 0, 0, 0, 0}, out, 0);
  }
}
