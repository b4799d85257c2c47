/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.FatTree;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.PairwisePolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;
import org.junit.jupiter.api.Test;

/** The run by host pairs against the run by flows, which it must repeat. */
class PairRunnerTest {

  private static final double[] GBPS = {0.1, 0.2, 0.5, 1, 10, 40};

  private static PairwisePolicy fair() {
    return (PairwisePolicy) Schemes.create("fair", SchemeOptions.defaults());
  }

  /**
   * On random clusters where senders may also run reducers (local flows), with flows of 0 bytes,
   * pinned reducers, coflows arriving together and apart, and many flows per host pair, fair
   * sharing run by pairs completes every coflow when the run by flows does and places every reducer
   * on the same host, exactly and at coarser resolutions.
   */
  @Test
  void fairByPairsIsFairByFlows() {
    Random rnd = new Random(7);
    int compared = 0;
    for (int trial = 0; trial < 400; trial++) {
      Instance inst = randomInstance(rnd);
      for (double resolution : new double[] {0, 0.01, 0.5}) {
        Schedule byFlows = ScheduleRunner.completionTimes(inst, fair(), resolution);
        Schedule byPairs = PairRunner.completionTimes(inst, fair(), resolution);
        for (int c = 0; c < inst.coflows().size(); c++) {
          CoflowSchedule f = byFlows.coflows().get(c);
          CoflowSchedule p = byPairs.coflows().get(c);
          String where = "trial " + trial + ", resolution " + resolution + ", coflow " + c;
          assertEquals(f.finish(), p.finish(), 1e-9 * Math.max(1, f.finish()), where);
          assertArrayEquals(f.hostOf(), p.hostOf(), where);
          compared++;
        }
      }
    }
    assertTrue(compared > 3000, "compared " + compared + " coflows");
  }

  /**
   * The flow runner's own case ({@link RunnerResolutionTest#threeFlows}): three flows of 1, 2 and 5
   * B into one 1 B/s link end at 8 s exactly; at resolution 10 the flow ending at 5 s frees nothing
   * until the next decision, and they end at 11 s.
   */
  @Test
  void threeFlowsIntoOneLink() {
    Instance inst = RunnerResolutionTest.threeFlows();
    assertEquals(8.0, PairRunner.completionTimes(inst, fair(), 0).coflows().get(0).cct(), 1e-9);
    assertEquals(11.0, PairRunner.completionTimes(inst, fair(), 10).coflows().get(0).cct(), 1e-9);
  }

  @Test
  void onlyBigSwitchesWithoutSlotLimitsAreRunByPairs() {
    List<Host> open = List.of(Host.sender("A", 1), Host.of("R", 1, 1));
    assertTrue(PairRunner.accepts(new Instance(open, List.of())));
    List<Host> limited = List.of(Host.sender("A", 1), new Host("R", 1, 1, 2, true));
    Instance withSlots = new Instance(limited, List.of());
    assertFalse(PairRunner.accepts(withSlots));
    assertThrows(
        IllegalArgumentException.class, () -> PairRunner.completionTimes(withSlots, fair(), 0));
    Fabric tree = FatTree.of(4, 1.0);
    List<Host> many = new ArrayList<>();
    for (int j = 0; j < tree.hosts(); j++) {
      many.add(Host.of("H" + j, 1, 1));
    }
    assertFalse(PairRunner.accepts(new Instance(many, List.of(), tree)));
  }

  @Test
  void aSenderWithNoBandwidthStallsTheRunLoudly() {
    List<Host> hosts = List.of(Host.sender("A", 0), Host.of("R", 1, 1));
    Coflow c = new Coflow("C1", 0, List.of(Reducer.free("r")), List.of(new Flow(0, 0, 1)));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> PairRunner.completionTimes(new Instance(hosts, List.of(c)), fair(), 0));
    assertTrue(e.getMessage().contains("stalled"), e.getMessage());
  }

  @Test
  void ratesOverALinksCapacityAreRefused() {
    List<Host> hosts = List.of(Host.sender("A", 10), Host.of("R", 1, 1));
    Coflow c = new Coflow("C1", 0, List.of(Reducer.free("r")), List.of(new Flow(0, 0, 1)));
    PairwisePolicy greedy =
        new PairwisePolicy() {
          @Override
          public String name() {
            return "greedy";
          }

          @Override
          public Decision decide(ClusterView view) {
            throw new AssertionError("runs by pairs");
          }

          @Override
          public int[][] placements(ClusterView arrivals) {
            return new int[][] {{1}};
          }

          @Override
          public double[] pairRates(List<Host> h, int[] from, int[] to, int[] flows) {
            return new double[] {2};
          }
        };
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> PairRunner.completionTimes(new Instance(hosts, List.of(c)), greedy, 0));
    assertTrue(e.getMessage().contains("exceeded the bandwidth of host R"), e.getMessage());
  }

  /**
   * Two to five hosts, each sending and (most) receiving, with few of them so that host pairs carry
   * several flows of several coflows; up to six coflows, some at the same instant.
   */
  private static Instance randomInstance(Random rnd) {
    int m = 2 + rnd.nextInt(4);
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      hosts.add(
          new Host(
              "H" + j,
              bandwidth(rnd),
              bandwidth(rnd),
              Host.UNLIMITED_SLOTS,
              j == 0 || rnd.nextInt(4) > 0));
    }
    List<Coflow> coflows = new ArrayList<>();
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      double arrival = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(4) * 0.5 + rnd.nextDouble();
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      int r = 1 + rnd.nextInt(4);
      for (int k = 0; k < r; k++) {
        reducers.add(new Reducer("C" + i + ".r" + k, rnd.nextInt(8) == 0 ? 0 : -1));
        for (int u = 0; u < m; u++) {
          if (rnd.nextInt(4) > 0) {
            flows.add(new Flow(u, k, rnd.nextInt(10) == 0 ? 0 : 1e6 + rnd.nextDouble() * 2e8));
          }
        }
      }
      coflows.add(new Coflow("C" + i, arrival, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }

  private static double bandwidth(Random rnd) {
    return GBPS[rnd.nextInt(GBPS.length)] * 1.25e8;
  }
}
