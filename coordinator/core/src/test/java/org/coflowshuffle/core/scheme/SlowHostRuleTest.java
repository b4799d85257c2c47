/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * {@code rpc} keeps a reducer off a host where it alone would take more than four times its
 * coflow's isolated lower bound, even when the fast hosts are busy for a while, and where slots are
 * limited it waits for a fast host's slot rather than take the slow host's.
 */
class SlowHostRuleTest {

  private static final int FAST = 1;
  private static final int SLOW = 2;

  /**
   * Twelve one-second coflows pinned to the fast host (100 B/s), smaller than B, so served first; B
   * has one reducer of 150 bytes: 1.5 s on the fast host, its isolated bound.
   */
  private static Schedule run(double slowBytesPerSec) {
    List<Host> hosts =
        List.of(
            Host.sender("s", 1e6),
            Host.of("fast", 100, 100),
            Host.of("slow", slowBytesPerSec, slowBytesPerSec));
    List<Coflow> coflows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      coflows.add(PaperExamples.pinned("A" + i, 0, new double[][] {{0, FAST, 100}}));
    }
    coflows.add(new Coflow("B", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 150))));
    return PaperExamples.run("slow host", "rpc", new Instance(hosts, coflows));
  }

  @Test
  void aReducerWaitsForTheFastHostRatherThanTakeOneFourTimesTooSlow() {
    // On the 20 B/s host B would end at 7.5 s, sooner than 12 + 1.5 s on the fast one; but 7.5 s
    // is five times its 1.5 s bound, and started there it could not move.
    Schedule s = run(20);
    assertEquals(FAST, s.coflows().get(12).hostOf()[0]);
    assertEquals(13.5, s.coflows().get(12).cct(), 1e-9);
  }

  @Test
  void aSlowHostWithinTheBoundIsTakenNow() {
    Schedule s = run(40); // 3.75 s there: within four times 1.5 s
    assertEquals(SLOW, s.coflows().get(12).hostOf()[0]);
    assertEquals(3.75, s.coflows().get(12).cct(), 1e-9);
  }

  /**
   * A (100 B) runs on the fast host's only slot until 1 s; B (150 B, bound 1.5 s) arrives at 0.5 s,
   * when the slow host (20 B/s) has its slot free.
   */
  private static Schedule runWithSlots(SchemeOptions options) {
    List<Host> hosts =
        List.of(
            Host.sender("s", 1e6),
            new Host("fast", 100, 100, 1, true),
            new Host("slow", 20, 20, 1, true));
    Instance inst =
        new Instance(
            hosts,
            List.of(
                new Coflow("A", 0, List.of(Reducer.free("a")), List.of(new Flow(0, 0, 100))),
                new Coflow("B", 0.5, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 150)))));
    Schedule s = ScheduleRunner.run(inst, Schemes.create("rpc", options));
    FeasibilityChecker.check(inst, s);
    return s;
  }

  @Test
  void aReducerWaitsForASlotOnTheFastHostRatherThanTakeTheSlowHostsSlot() {
    // On the slow host B would take 7.5 s, five times its bound: it waits for A's slot and is done
    // at 1 + 1.5 s.
    Schedule s = runWithSlots(SchemeOptions.defaults());
    assertEquals(FAST, s.coflows().get(1).hostOf()[0]);
    assertEquals(2.0, s.coflows().get(1).cct(), 1e-9);
  }

  @Test
  void aPlacementTheClusterStartsGivesEveryReducerAHost() {
    // placeAll: the live placement of a stage, whose tasks Spark runs at once wherever placed.
    Schedule s =
        runWithSlots(new SchemeOptions(1, SchemeOptions.DEFAULT_STARVATION_THRESHOLD, false, true));
    assertEquals(SLOW, s.coflows().get(1).hostOf()[0]);
    assertEquals(7.5, s.coflows().get(1).cct(), 1e-9);
  }
}
