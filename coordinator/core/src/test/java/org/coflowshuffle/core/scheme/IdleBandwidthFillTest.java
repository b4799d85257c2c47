/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.plan.NetworkProfile;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.junit.jupiter.api.Test;

/**
 * The fill serves one flow per host pair; it must hand out exactly what serving every crossing
 * flow, larger first (a stable sort), hands out: the same extra rate on the same flow, the same
 * bandwidth left on every link, to the bit.
 */
class IdleBandwidthFillTest {

  @Test
  void sameAsServingEveryFlowLargerFirst() {
    Random rnd = new Random(5);
    IdleBandwidthFill fill = new IdleBandwidthFill(); // reused, as a policy reuses it
    for (int trial = 0; trial < 500; trial++) {
      boolean wide = trial % 50 == 0; // thousands of host pairs: the pair table grows
      int m = wide ? 40 + rnd.nextInt(40) : 2 + rnd.nextInt(7);
      int flows = wide ? 3000 : 15;
      List<Host> hosts = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        hosts.add(Host.of("h" + j, 1 + rnd.nextInt(100), 1 + rnd.nextInt(100)));
      }
      List<ActiveCoflow> active = new ArrayList<>();
      for (int c = 0; c < 1 + rnd.nextInt(4); c++) {
        active.add(randomCoflow(c, m, flows, rnd));
      }
      long ops = rnd.nextLong();
      NetworkProfile expectedNet = partlyTaken(hosts, ops);
      NetworkProfile actualNet = partlyTaken(hosts, ops);
      CoflowAssignment[] expected = assignments(active, m, rnd.nextLong());
      CoflowAssignment[] actual = new CoflowAssignment[expected.length];
      for (int i = 0; i < actual.length; i++) { // the same plan, own rates arrays
        actual[i] = new CoflowAssignment(expected[i].hostOf(), expected[i].rates().clone());
      }

      everyFlowLargerFirst(active, expected, expectedNet);
      fill.fill(active, actual, actualNet);

      for (int i = 0; i < actual.length; i++) {
        assertArrayEquals(expected[i].rates(), actual[i].rates(), 0, "trial " + trial);
      }
      for (int j = 0; j < m; j++) {
        assertEquals(expectedNet.out(j).rateNow(), actualNet.out(j).rateNow(), 0, "trial " + trial);
        assertEquals(expectedNet.in(j).rateNow(), actualNet.in(j).rateNow(), 0, "trial " + trial);
      }
    }
  }

  @Test
  void theLargerFlowOfAPairGetsTheIdleBandwidth() {
    // Two coflows send from h0 to h1 (reducers there), 10 and 30 bytes: the 30-byte flow of the
    // second coflow takes all 5 B/s h0 can send; the first gets nothing.
    List<Host> hosts = List.of(Host.of("h0", 100, 5), Host.of("h1", 8, 100));
    List<ActiveCoflow> active = List.of(oneFlow(0, 10), oneFlow(1, 30));
    CoflowAssignment[] out = {
      new CoflowAssignment(new int[] {1}, new double[1]),
      new CoflowAssignment(new int[] {1}, new double[1])
    };
    NetworkProfile net = new NetworkProfile(0, hosts, new int[2]);
    new IdleBandwidthFill().fill(active, out, net);
    assertEquals(0, out[0].rates()[0]);
    assertEquals(5, out[1].rates()[0]);
    assertEquals(3, net.in(1).rateNow());
  }

  private static ActiveCoflow oneFlow(int index, double bytes) {
    Coflow c =
        new Coflow("c" + index, 0, List.of(Reducer.free("r")), List.of(new Flow(0, 0, bytes)));
    return new ActiveCoflow(
        index,
        c,
        new double[] {bytes},
        0,
        new int[] {1},
        new boolean[1],
        0,
        0,
        new int[] {0},
        new int[] {0},
        null);
  }

  /** Flows with sizes from a few values, so that ties between flows are common. */
  private static ActiveCoflow randomCoflow(int index, int m, int maxFlows, Random rnd) {
    int reducers = 1 + rnd.nextInt(4);
    List<Reducer> rs = new ArrayList<>();
    for (int n = 0; n < reducers; n++) {
      rs.add(Reducer.free("c" + index + ".r" + n));
    }
    List<Flow> flows = new ArrayList<>();
    for (int k = 0; k < 1 + rnd.nextInt(maxFlows); k++) {
      flows.add(new Flow(rnd.nextInt(m), rnd.nextInt(reducers), 1 + rnd.nextInt(4)));
    }
    Coflow c = new Coflow("c" + index, 0, rs, flows);
    double[] remaining = new double[flows.size()];
    for (int k = 0; k < remaining.length; k++) {
      remaining[k] = rnd.nextInt(5) == 0 ? 0 : flows.get(k).bytes(); // some done
    }
    int[] src = flows.stream().mapToInt(Flow::src).toArray();
    int[] reducer = flows.stream().mapToInt(Flow::reducer).toArray();
    return new ActiveCoflow(
        index, c, remaining, 0, new int[reducers], new boolean[reducers], 0, 0, src, reducer, null);
  }

  /** Each reducer on a random host or none, and a random rate already on some flows. */
  private static CoflowAssignment[] assignments(List<ActiveCoflow> active, int m, long seed) {
    Random rnd = new Random(seed);
    CoflowAssignment[] out = new CoflowAssignment[active.size()];
    for (int i = 0; i < out.length; i++) {
      ActiveCoflow a = active.get(i);
      int[] hostOf = new int[a.coflow().reducers().size()];
      for (int n = 0; n < hostOf.length; n++) {
        hostOf[n] = rnd.nextInt(m + 1) - 1;
      }
      double[] rates = new double[a.remaining().length];
      for (int k = 0; k < rates.length; k++) {
        rates[k] = a.crossesNetwork(k, hostOf) && rnd.nextBoolean() ? rnd.nextInt(3) : 0;
      }
      out[i] = new CoflowAssignment(hostOf, rates);
    }
    return out;
  }

  /** A profile of {@code hosts} with some of their bandwidth taken, the same for the same ops. */
  private static NetworkProfile partlyTaken(List<Host> hosts, long ops) {
    Random rnd = new Random(ops);
    NetworkProfile net = new NetworkProfile(0, hosts, new int[hosts.size()]);
    for (int j = 0; j < hosts.size(); j++) {
      switch (rnd.nextInt(3)) {
        case 0 -> net.out(j).takeNow(net.out(j).rateNow());
        case 1 -> net.in(j).takeNow(net.in(j).rateNow() * rnd.nextDouble());
        default -> {}
      }
    }
    return net;
  }

  /** The fill as first written: every crossing flow, sorted larger first (stable), served. */
  private static void everyFlowLargerFirst(
      List<ActiveCoflow> active, CoflowAssignment[] out, NetworkProfile net) {
    List<int[]> flows = new ArrayList<>();
    for (int i = 0; i < active.size(); i++) {
      for (int k = 0; k < active.get(i).remaining().length; k++) {
        if (active.get(i).crossesNetwork(k, out[i].hostOf())) {
          flows.add(new int[] {i, k});
        }
      }
    }
    flows.sort(Comparator.comparingDouble(f -> -active.get(f[0]).remaining()[f[1]]));
    for (int[] f : flows) {
      Flow flow = active.get(f[0]).coflow().flows().get(f[1]);
      int dst = out[f[0]].hostOf()[flow.reducer()];
      double extra = Math.min(net.out(flow.src()).rateNow(), net.in(dst).rateNow());
      if (extra > 0) {
        out[f[0]].rates()[f[1]] += extra;
        net.out(flow.src()).takeNow(extra);
        net.in(dst).takeNow(extra);
      }
    }
  }
}
