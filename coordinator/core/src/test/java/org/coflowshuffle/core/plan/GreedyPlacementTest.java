/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.junit.jupiter.api.Test;

/**
 * List scheduling skips the hosts that cannot beat the best finish found so far without walking
 * their profiles (without locality, the rest of a group of hosts as fast as one skipped and more
 * loaded); it must choose exactly the host that walking every profile would.
 */
class GreedyPlacementTest {

  @Test
  void skippingHostsChoosesWhatWalkingEveryHostChooses() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 600; trial++) {
      boolean large = trial >= 400; // groups of many equally fast hosts, loaded one after another
      int m = 2 + rnd.nextInt(large ? 60 : 12);
      List<Host> hosts = new ArrayList<>();
      for (int j = 0; j < m; j++) {
        double in = 1 + rnd.nextInt(4) * 10; // few speeds: ties in finish and rate happen
        hosts.add(new Host("h" + j, in, 1 + rnd.nextInt(50), Host.UNLIMITED_SLOTS, j % 3 != 0));
      }
      int reducers = 1 + rnd.nextInt(large ? 60 : 8);
      List<Reducer> rs = new ArrayList<>();
      for (int r = 0; r < reducers; r++) {
        rs.add(Reducer.free("r" + r));
      }
      boolean local = trial % 2 == 0; // else only hosts that run no reducers send
      List<Flow> flows = new ArrayList<>();
      for (int k = 0; k < 1 + rnd.nextInt(large ? 200 : 20); k++) {
        int src = local ? rnd.nextInt(m) : 3 * rnd.nextInt((m + 2) / 3);
        flows.add(new Flow(src, rnd.nextInt(reducers), 10 * (1 + rnd.nextInt(20))));
      }
      CoflowDemand d = demand(new Coflow("c", 0, rs, flows), hosts);
      NetworkProfile net = new NetworkProfile(0, hosts, new int[m]);
      for (int change = 0; change < rnd.nextInt(3 * m); change++) { // bandwidth freeing over time
        LinkProfile link = net.in(rnd.nextInt(m));
        if (rnd.nextBoolean()) {
          link.reserve(rnd.nextInt(10), 10 + rnd.nextInt(30), 1 + rnd.nextInt(20));
        } else {
          link.consume(rnd.nextInt(300));
        }
      }
      boolean[] eligible = new boolean[m];
      double[] loads = new double[m];
      for (int j = 0; j < m; j++) {
        eligible[j] = hosts.get(j).canHostReducers() && rnd.nextInt(4) > 0;
        loads[j] = rnd.nextInt(3) == 0 ? 10 * rnd.nextInt(10) : 0;
      }
      eligible[1] = true;
      int[] all = new int[reducers];
      Arrays.setAll(all, n -> n);
      int[] placed = new int[reducers];
      new GreedyPlacement().place(d, all, eligible, loads, net, placed);
      assertArrayEquals(walkingEveryHost(d, eligible, loads, net), placed, "trial " + trial);
    }
  }

  /** The rule itself: largest first, each on the eligible host that ends it first. */
  private static int[] walkingEveryHost(
      CoflowDemand d, boolean[] eligible, double[] loads, NetworkProfile net) {
    double[] load = loads.clone();
    int[] hostOf = new int[d.reducers()];
    int[] order = new int[d.reducers()];
    Arrays.setAll(order, n -> n);
    for (int n : GreedyPlacement.bySizeDescending(d, order)) {
      int best = -1;
      for (int j = 0; j < eligible.length; j++) {
        if (!eligible[j]) {
          continue;
        }
        double finish = net.in(j).timeToCarry(load[j] + d.networkBytes(n, j));
        double bestFinish =
            best < 0 ? Double.NaN : net.in(best).timeToCarry(load[best] + d.networkBytes(n, best));
        if (best < 0
            || finish < bestFinish
            || finish == bestFinish && net.in(j).finalRate() > net.in(best).finalRate()) {
          best = j;
        }
      }
      hostOf[n] = best;
      load[best] += d.networkBytes(n, best);
    }
    return hostOf;
  }

  private static CoflowDemand demand(Coflow c, List<Host> hosts) {
    double[] remaining = c.flows().stream().mapToDouble(Flow::bytes).toArray();
    int[] src = c.flows().stream().mapToInt(Flow::src).toArray();
    int[] reducer = c.flows().stream().mapToInt(Flow::reducer).toArray();
    int reducers = c.reducers().size();
    int[] hostOf = new int[reducers];
    Arrays.fill(hostOf, -1);
    ActiveCoflow a =
        new ActiveCoflow(
            0, c, remaining, 0, hostOf, new boolean[reducers], 0, 0, src, reducer, null);
    CoflowShape shape = new CoflowShape(a);
    return new CoflowDemand(a, shape, shape.sendersMayHostReducers(hosts));
  }
}
