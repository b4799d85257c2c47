/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 1 stops planning once no coflow left may receive now; that must change no rate and no
 * placement of a coflow that moves (against the same scheme planning every coflow), only leave the
 * waiting ones unplaced, and {@code placeAll} must still place them.
 */
class SrtfEarlyStopTest {

  /** Decides with and without the early stop on every view, compares, and goes on with it. */
  private static final class Compared implements SchedulingPolicy {
    final SchedulingPolicy stops;
    final SchedulingPolicy plansAll;
    int decisions;
    int leftUnplaced; // coflows the early stop left without a host that placeAll placed
    ClusterView first;

    Compared(String scheme, long seed) {
      stops = Schemes.create(scheme, new SchemeOptions(seed, 1e9, false, false));
      plansAll =
          ((SrtfPolicy) Schemes.create(scheme, new SchemeOptions(seed, 1e9, false)))
              .planningEvery();
    }

    @Override
    public String name() {
      return stops.name();
    }

    @Override
    public Decision decide(ClusterView view) {
      first = first == null ? view : first;
      Decision a = stops.decide(view);
      Decision b = plansAll.decide(view);
      for (int i = 0; i < view.coflows().size(); i++) {
        CoflowAssignment x = a.assignments().get(i);
        CoflowAssignment y = b.assignments().get(i);
        String where = "decision " + decisions + " at " + view.now() + ", coflow " + i;
        assertSameRates(y.rates(), x.rates(), where);
        if (Arrays.stream(x.rates()).anyMatch(r -> r > 0)) {
          assertArrayEquals(y.hostOf(), x.hostOf(), where);
        } else if (!Arrays.equals(x.hostOf(), y.hostOf())) {
          leftUnplaced++;
        }
      }
      assertEquals(b.wakeUpAt(), a.wakeUpAt());
      decisions++;
      return a;
    }
  }

  /**
   * Equal up to rounding: where one policy committed a coflow that got no rate and the other did
   * not, the first continues from that commit at the next one and the second starts afresh, and
   * rates kept from a commit equal those computed afresh only to within rounding.
   */
  private static void assertSameRates(double[] expected, double[] actual, String where) {
    assertEquals(expected.length, actual.length, where);
    for (int k = 0; k < expected.length; k++) {
      assertEquals(expected[k], actual[k], 1e-12 * expected[k], where + ", flow " + k);
    }
  }

  private static void sameSchedules(String scheme, int trials, boolean slots) {
    Random rnd = new Random(11);
    int decisions = 0;
    int leftUnplaced = 0;
    for (int trial = 0; trial < trials; trial++) {
      Instance inst = RandomInstances.synthetic(rnd, slots);
      Compared compared = new Compared(scheme, trial);
      Schedule s = ScheduleRunner.run(inst, compared);
      Schedule full =
          ScheduleRunner.run(inst, Schemes.create(scheme, new SchemeOptions(trial, 1e9, false)));
      for (int c = 0; c < inst.coflows().size(); c++) {
        assertEquals(full.coflows().get(c).cct(), s.coflows().get(c).cct(), "trial " + trial);
      }
      decisions += compared.decisions;
      leftUnplaced += compared.leftUnplaced;
    }
    System.out.printf(
        "%s: %d decisions, %d waiting coflows left unplaced%n", scheme, decisions, leftUnplaced);
    assertTrue(leftUnplaced > 0, "the early stop never happened: the test checks nothing");
  }

  @Test
  void rpcStopsEarlyWithTheSameRatesAndPlacementsOfWhatMoves() {
    sameSchedules("rpc", 400, false);
  }

  @Test
  void rpcStopsEarlyWithTheSameRatesWhereSlotsAreScarce() {
    sameSchedules("rpc", 200, true);
  }

  @Test
  void rpcFaithfulStopsEarlyWithTheSameRates() {
    sameSchedules("rpc-faithful", 200, false);
  }

  @Test
  void aWaitingCoflowThatMayNotUseTheSlowHostIsLeftUnplacedUnlessAllArePlaced() {
    // A holds the fast host for 1 s; B (150 B) would take 7.5 s on the slow host, five times its
    // bound of 1.5 s, so it may not go there and gets nothing now.
    List<Host> hosts =
        List.of(Host.sender("s", 1e6), Host.of("fast", 100, 100), Host.of("slow", 20, 20));
    Coflow a = PaperExamples.pinned("A", 0, new double[][] {{0, 1, 100}});
    Coflow b = new Coflow("B", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 150)));
    Compared compared = new Compared("rpc", 1);
    ScheduleRunner.run(new Instance(hosts, List.of(a, b)), compared);
    assertEquals(0, compared.first.now());
    Compared fresh = new Compared("rpc", 1);
    assertArrayEquals(
        new int[] {-1}, fresh.stops.decide(compared.first).assignments().get(1).hostOf());
    assertArrayEquals(
        new int[] {1},
        Schemes.create("rpc", new SchemeOptions(1, 1e9, false, true))
            .decide(compared.first)
            .assignments()
            .get(1)
            .hostOf());
  }
}
