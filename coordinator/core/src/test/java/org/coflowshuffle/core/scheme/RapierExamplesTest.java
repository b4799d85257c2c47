/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.route.Ecmp;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Two racks of two hosts joined by two spine switches: every flow between the racks has two paths.
 * All links carry 100 B/s. The Rapier paper's point (section II): ECMP may hash a coflow's flows
 * onto one path, and no scheduling can then make up for it.
 */
class RapierExamplesTest {

  private static final double LINK = 100;

  /** Inner links: rack A to spine s is 2s, spine s to rack B is 2s+1; 4 + ... the other way. */
  private static Fabric twoSpines() {
    return new Fabric(
        "two spines",
        4,
        new double[] {LINK, LINK, LINK, LINK, LINK, LINK, LINK, LINK},
        (s, d) -> {
          if (s / 2 == d / 2) {
            return new int[][] {{}};
          }
          int back = s / 2 == 0 ? 0 : 4;
          return new int[][] {{back, back + 1}, {back + 2, back + 3}};
        });
  }

  private static List<Host> hosts() {
    return List.of(
        Host.of("a0", LINK, LINK),
        Host.of("a1", LINK, LINK),
        Host.of("b0", LINK, LINK),
        Host.of("b1", LINK, LINK));
  }

  /** An ECMP salt under which both flows of the first coflow hash onto the same spine. */
  private static long collidingSeed() {
    for (long seed = 1; ; seed++) {
      if (Ecmp.pick(seed, 0, 0, 2) == Ecmp.pick(seed, 0, 1, 2)) {
        return seed;
      }
    }
  }

  private static double[] run(String scheme, Instance instance, long seed) {
    Schedule s =
        ScheduleRunner.run(
            instance,
            Schemes.create(
                scheme,
                new SchemeOptions(seed, SchemeOptions.DEFAULT_STARVATION_THRESHOLD, false)));
    FeasibilityChecker.check(instance, s);
    double[] cct = new double[s.coflows().size()];
    StringBuilder line = new StringBuilder(String.format("two spines %-15s", scheme));
    for (int c = 0; c < cct.length; c++) {
      cct[c] = s.coflows().get(c).cct();
      line.append(String.format(" %s %.3f s", instance.coflows().get(c).id(), cct[c]));
    }
    System.out.println(line);
    return cct;
  }

  @Test
  void routingMattersWhenEcmpPutsACoflowOnOnePath() {
    Instance instance =
        new Instance(
            hosts(),
            List.of(PaperExamples.pinned("X", 0, new double[][] {{0, 2, 100}, {1, 3, 100}})),
            twoSpines());
    long seed = collidingSeed();
    assertEquals(1.0, run("rapier", instance, seed)[0], 1e-9); // one flow per spine
    assertEquals(1.0, run("routing-only", instance, seed)[0], 1e-9);
    assertEquals(2.0, run("scheduling-only", instance, seed)[0], 1e-9); // both on one spine
    assertEquals(2.0, run("ecmp-fair", instance, seed)[0], 1e-9);
  }

  @Test
  void rapierSchedulesAndRoutesTogether() {
    // X as above and a small Y from a0 to b1 that competes for a0's link: Y first (MRTF), X's other
    // flow on the spine Y leaves free, then X's a0 flow once Y is done: 0.5 s and 1.5 s.
    Instance instance =
        new Instance(
            hosts(),
            List.of(
                PaperExamples.pinned("X", 0, new double[][] {{0, 2, 100}, {1, 3, 100}}),
                PaperExamples.pinned("Y", 0, new double[][] {{0, 3, 50}})),
            twoSpines());
    long seed = collidingSeed();
    double[] rapier = run("rapier", instance, seed);
    assertEquals(1.5, rapier[0], 1e-9);
    assertEquals(0.5, rapier[1], 1e-9);
    for (String other : List.of("scheduling-only", "routing-only", "ecmp-fair")) {
      double[] cct = run(other, instance, seed);
      assertTrue(
          cct[0] + cct[1] > rapier[0] + rapier[1] + 1e-9,
          other + " averages " + (cct[0] + cct[1]) / 2 + " s, not above Rapier's 1.0 s");
    }
  }

  @Test
  void onABigSwitchRapierIsMrtfWithWorkConservation() {
    Instance instance =
        new Instance(
            hosts(),
            List.of(
                PaperExamples.pinned("big", 0, new double[][] {{0, 2, 300}}),
                PaperExamples.pinned("small", 0, new double[][] {{0, 3, 100}})));
    double[] cct = run("rapier", instance, 1);
    assertEquals(1.0, cct[1], 1e-9); // small first at the full 100 B/s
    assertEquals(4.0, cct[0], 1e-9);
    double[] fair = run("ecmp-fair", instance, 1);
    assertEquals(2.0, fair[1], 1e-9); // halves until small is done
    assertEquals(4.0, fair[0], 1e-9);
  }
}
