/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.junit.jupiter.api.Test;

/** The simulator where the answer is known by hand or derived apart from the runner. */
class SimulationTest {

  private static final SchemeOptions OPTIONS = SchemeOptions.defaults();

  @Test
  void oneFlowTakesItsBytesOverTheSlowerLink() {
    Instance one =
        new Instance(
            List.of(Host.sender("S", 2e8), Host.of("R", 1e8, 1e8)),
            List.of(new Coflow("C", 0, List.of(Reducer.free("r")), List.of(new Flow(0, 0, 3e8)))));
    for (String scheme : Schemes.names()) {
      assertEquals(3.0, Simulation.run(one, scheme, OPTIONS).cct()[0], 1e-9, scheme);
    }
    assertEquals(3.0, IsolatedLowerBound.of(one.coflows().get(0), one.hosts()), 1e-12);
  }

  @Test
  void twoFlowsShareALinkFairly() {
    // Both reducers pinned on R: fair sharing gives each half of R's link until the smaller ends.
    Instance two =
        new Instance(
            List.of(Host.sender("S1", 1e9), Host.sender("S2", 1e9), Host.of("R", 1e8, 1e8)),
            List.of(
                new Coflow("A", 0, List.of(new Reducer("a", 2)), List.of(new Flow(0, 0, 1e8))),
                new Coflow("B", 0, List.of(new Reducer("b", 2)), List.of(new Flow(1, 0, 3e8)))));
    double[] fair = {
      Simulation.run(two, "fair", OPTIONS).cct()[0], Simulation.run(two, "fair", OPTIONS).cct()[1]
    };
    assertArrayEquals(new double[] {2.0, 4.0}, fair, 1e-9); // A: 1e8 at 5e7; B: 1e8 then 2e8 at 1e8
    double[] srtf = Simulation.run(two, "rpc", OPTIONS).cct();
    assertArrayEquals(new double[] {1.0, 4.0}, srtf, 1e-9); // shortest first, whole link each
  }

  @Test
  void fairSharingMatchesAMaxMinFairDerivation() {
    // Random pinned coflows arriving over time on hosts of different speeds, checked against
    // per-flow max-min fair sharing worked out event by event below, apart from the runner.
    for (long seed = 1; seed <= 30; seed++) {
      Instance inst = randomPinned(new Random(seed), 4, 3, 6, 1e8);
      double[] simulated = Simulation.run(inst, "fair", OPTIONS).cct();
      double[] derived = maxMinFair(inst);
      for (int i = 0; i < derived.length; i++) {
        assertEquals(derived[i], simulated[i], 1e-6 * derived[i], "seed " + seed + " coflow " + i);
      }
    }
  }

  @Test
  void rpcOnOneLinkIsShortestRemainingFirst() {
    // One receiving link binds: rpc serves the coflow with the fewest bytes left, preempting on
    // arrival, which is preemptive SRPT on one machine with release times, derived below. The
    // starvation threshold is set beyond the runs, whose longest waits exceed its default.
    SchemeOptions noStarvation = new SchemeOptions(1, 1e9, false);
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      Instance inst = randomPinned(rnd, 3, 1, 7, 1e12);
      double[] simulated = Simulation.run(inst, "rpc", noStarvation).cct();
      double[] derived = shortestRemainingFirst(inst, inst.hosts().get(3).inBytesPerSec());
      for (int i = 0; i < derived.length; i++) {
        assertEquals(derived[i], simulated[i], 1e-6 * derived[i], "seed " + seed + " coflow " + i);
      }
    }
  }

  /**
   * {@code senders} sender-only hosts with {@code senderSpeed} (random where it is below 1e12),
   * {@code receivers} hosts of 20 to 100 MB/s; {@code coflows} coflows arriving in the first 3 s,
   * each with one to three reducers pinned on random receivers and a flow of 5 to 100 MB from each
   * of one to three random senders to each reducer.
   */
  private static Instance randomPinned(
      Random rnd, int senders, int receivers, int coflows, double senderSpeed) {
    List<Host> hosts = new ArrayList<>();
    for (int s = 0; s < senders; s++) {
      double speed = senderSpeed < 1e12 ? senderSpeed * (0.2 + rnd.nextDouble()) : senderSpeed;
      hosts.add(Host.sender("S" + s, speed));
    }
    for (int r = 0; r < receivers; r++) {
      double speed = 2e7 + 8e7 * rnd.nextDouble();
      hosts.add(Host.of("R" + r, speed, speed));
    }
    List<Coflow> list = new ArrayList<>();
    for (int c = 0; c < coflows; c++) {
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      int n = 1 + rnd.nextInt(3);
      for (int k = 0; k < n; k++) {
        reducers.add(new Reducer("c" + c + "r" + k, senders + rnd.nextInt(receivers)));
        for (int s : rnd.ints(0, senders).distinct().limit(1 + rnd.nextInt(3)).toArray()) {
          flows.add(new Flow(s, k, 5e6 + 95e6 * rnd.nextDouble()));
        }
      }
      list.add(new Coflow("C" + c, 3 * rnd.nextDouble(), reducers, flows));
    }
    return new Instance(hosts, list);
  }

  /** Per-flow max-min fair sharing of every host's links, by progressive filling at each event. */
  private static double[] maxMinFair(Instance inst) {
    int m = inst.hosts().size();
    double[] capacity = new double[2 * m]; // outgoing links, then incoming
    for (int h = 0; h < m; h++) {
      capacity[h] = inst.hosts().get(h).outBytesPerSec();
      capacity[m + h] = inst.hosts().get(h).inBytesPerSec();
    }
    List<int[]> links = new ArrayList<>(); // per flow: coflow, outgoing link, incoming link
    List<Double> left = new ArrayList<>();
    for (int c = 0; c < inst.coflows().size(); c++) {
      Coflow coflow = inst.coflows().get(c);
      for (Flow f : coflow.flows()) {
        links.add(new int[] {c, f.src(), m + coflow.reducers().get(f.reducer()).pinnedHost()});
        left.add(f.bytes());
      }
    }
    double[] end = new double[inst.coflows().size()];
    double now = 0;
    while (true) {
      List<Integer> active = new ArrayList<>();
      double nextArrival = Double.POSITIVE_INFINITY;
      for (int f = 0; f < links.size(); f++) {
        double arrival = inst.coflows().get(links.get(f)[0]).arrival();
        if (left.get(f) > 0 && arrival <= now) {
          active.add(f);
        } else if (left.get(f) > 0) {
          nextArrival = Math.min(nextArrival, arrival);
        }
      }
      if (active.isEmpty() && nextArrival == Double.POSITIVE_INFINITY) {
        break;
      }
      double[] rate = new double[links.size()];
      double[] used = new double[2 * m];
      List<Integer> growing = new ArrayList<>(active);
      while (!growing.isEmpty()) {
        int[] count = new int[2 * m];
        for (int f : growing) {
          count[links.get(f)[1]]++;
          count[links.get(f)[2]]++;
        }
        double step = Double.POSITIVE_INFINITY;
        for (int l = 0; l < 2 * m; l++) {
          if (count[l] > 0) {
            step = Math.min(step, (capacity[l] - used[l]) / count[l]);
          }
        }
        for (int f : growing) {
          rate[f] += step;
          used[links.get(f)[1]] += step;
          used[links.get(f)[2]] += step;
        }
        growing.removeIf(
            f ->
                capacity[links.get(f)[1]] - used[links.get(f)[1]]
                        <= 1e-9 * capacity[links.get(f)[1]]
                    || capacity[links.get(f)[2]] - used[links.get(f)[2]]
                        <= 1e-9 * capacity[links.get(f)[2]]);
      }
      double dt = nextArrival - now;
      for (int f : active) {
        dt = Math.min(dt, left.get(f) / rate[f]);
      }
      now += dt;
      for (int f : active) {
        double rest = left.get(f) - rate[f] * dt;
        left.set(f, rest <= 1e-9 * rate[f] ? 0 : rest);
        if (left.get(f) == 0) {
          end[links.get(f)[0]] = Math.max(end[links.get(f)[0]], now);
        }
      }
    }
    for (int c = 0; c < end.length; c++) {
      end[c] -= inst.coflows().get(c).arrival();
    }
    return end;
  }

  /** Preemptive shortest-remaining-first of whole coflows on one link of {@code bandwidth}. */
  private static double[] shortestRemainingFirst(Instance inst, double bandwidth) {
    int k = inst.coflows().size();
    double[] left = new double[k];
    for (int c = 0; c < k; c++) {
      for (Flow f : inst.coflows().get(c).flows()) {
        left[c] += f.bytes();
      }
    }
    double[] cct = new double[k];
    double now = 0;
    for (int done = 0; done < k; ) {
      int next = -1;
      double nextArrival = Double.POSITIVE_INFINITY;
      for (int c = 0; c < k; c++) {
        double arrival = inst.coflows().get(c).arrival();
        if (left[c] > 0 && arrival <= now && (next < 0 || left[c] < left[next])) {
          next = c;
        } else if (left[c] > 0 && arrival > now) {
          nextArrival = Math.min(nextArrival, arrival);
        }
      }
      if (next < 0) {
        now = nextArrival;
        continue;
      }
      double dt = Math.min(left[next] / bandwidth, nextArrival - now);
      now += dt;
      left[next] -= dt * bandwidth;
      if (left[next] <= 1e-9 * bandwidth) {
        left[next] = 0;
        cct[next] = now - inst.coflows().get(next).arrival();
        done++;
      }
    }
    return cct;
  }

  @Test
  void noSchemeBeatsTheIsolatedLowerBound() throws Exception {
    Instance inst =
        new org.coflowshuffle.simulator.workload.RpcSynthetic(CoflowTrace.facebook())
            .instance(6, 8, 5, 0, 9);
    for (String scheme : Schemes.names()) {
      double[] cct = Simulation.run(inst, scheme, OPTIONS).cct();
      for (int i = 0; i < cct.length; i++) {
        double bound = IsolatedLowerBound.of(inst.coflows().get(i), inst.hosts());
        assertTrue(
            cct[i] >= bound * (1 - 1e-9), scheme + " coflow " + i + ": " + cct[i] + " < " + bound);
      }
    }
  }
}
