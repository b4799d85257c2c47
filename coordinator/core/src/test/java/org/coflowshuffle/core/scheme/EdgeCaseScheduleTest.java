/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
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

/** Cases that once stalled or misbehaved, each with the outcome it must have. */
class EdgeCaseScheduleTest {

  private static Coflow one(String id, double arrival, Reducer r, int src, double bytes) {
    return new Coflow(id, arrival, List.of(r), List.of(new Flow(src, 0, bytes)));
  }

  private static double[] ccts(Instance inst, String scheme, SchemeOptions options) {
    Schedule s = ScheduleRunner.run(inst, Schemes.create(scheme, options));
    FeasibilityChecker.check(inst, s);
    return s.coflows().stream().mapToDouble(c -> c.cct()).toArray();
  }

  @Test
  void runningReducersHoldingEverySlotStillGetBandwidth() {
    // Every slot is held by a reducer already running: they need no new slot, only bandwidth.
    Instance inst =
        new Instance(
            List.of(
                Host.sender("S", 10), new Host("R1", 1, 1, 1, true), new Host("R2", 1, 1, 1, true)),
            List.of(
                one("C1", 0, new Reducer("a", 1), 0, 2), one("C2", 0, new Reducer("b", 2), 0, 3)));
    for (String scheme : Schemes.names()) {
      double[] cct = ccts(inst, scheme, SchemeOptions.defaults());
      assertEquals(2.0, cct[0], 1e-9, scheme);
      assertEquals(3.0, cct[1], 1e-9, scheme);
    }
  }

  @Test
  void aCoflowIsServedFirstOnceItHasWaitedDelta() {
    // One 1 B/s link; SRTF serves Small first, but at t = delta = 1 s Big has waited long enough
    // (Algorithm 1, lines 6-9): it takes the link and finishes at 11 s; Small resumes, ends at 15
    // s.
    Instance inst =
        new Instance(
            List.of(Host.sender("S", 1), Host.of("R", 1, 1)),
            List.of(
                one("Big", 0, new Reducer("big", 1), 0, 10),
                one("Small", 0, new Reducer("small", 1), 0, 5)));
    double[] cct = ccts(inst, "rpc", new SchemeOptions(1, 1.0, false));
    assertEquals(11.0, cct[0], 1e-9);
    assertEquals(15.0, cct[1], 1e-9);
  }

  @Test
  void aCoflowBeingServedDoesNotStarve() {
    // Big (9 B from each of S1 and S2 after its first second) is served on S1 while Medium (4 B
    // from S2, arriving at 1 s) has S2 (1 B/s each, R receives 2 B/s). Big is older than delta = 2
    // s at t = 2 but has waited for nothing: Medium must end at 5 s, then Big's 9 B on S2 take to
    // 14 s. Counting Big's age as its wait served it first from t = 2: Medium then ended at 14 s.
    Instance inst =
        new Instance(
            List.of(Host.sender("S1", 1), Host.sender("S2", 1), Host.of("R", 2, 2)),
            List.of(
                new Coflow(
                    "Big",
                    0,
                    List.of(new Reducer("big", 2)),
                    List.of(new Flow(0, 0, 10), new Flow(1, 0, 10))),
                one("Medium", 1, new Reducer("medium", 2), 1, 4)));
    double[] cct = ccts(inst, "rpc", new SchemeOptions(1, 2.0, false));
    assertEquals(4.0, cct[1], 1e-9);
    assertEquals(14.0, cct[0], 1e-9);
  }

  @Test
  void largeTimesDoNotFreezeTheRunner() {
    // At t = 3600 s, now + sliver / rate rounds back to now: completion must not depend on it.
    Instance inst =
        new Instance(
            List.of(Host.sender("S", 1.25e8), Host.of("R", 1.25e8, 1.25e8)),
            List.of(
                new Coflow(
                    "C",
                    3600.0507,
                    List.of(Reducer.free("r")),
                    List.of(new Flow(0, 0, 1021.49), new Flow(0, 0, 8565.22)))));
    for (String scheme : Schemes.names()) {
      double[] cct =
          assertTimeoutPreemptively(
              Duration.ofSeconds(20), () -> ccts(inst, scheme, SchemeOptions.defaults()), scheme);
      assertEquals((1021.49 + 8565.22) / 1.25e8, cct[0], 1e-6, scheme);
    }
  }

  @Test
  void randomPlacementAvoidsHostsThatCannotReceive() {
    Instance inst =
        new Instance(
            List.of(Host.sender("S", 10), Host.of("R0", 0, 1), Host.of("R1", 1, 1)),
            List.of(
                new Coflow(
                    "C",
                    0,
                    List.of(Reducer.free("a"), Reducer.free("b")),
                    List.of(new Flow(0, 0, 2), new Flow(0, 1, 2)))));
    for (long seed = 1; seed <= 5; seed++) {
      for (String scheme : List.of("fair", "varys")) {
        double[] cct =
            ccts(
                inst,
                scheme,
                new SchemeOptions(seed, SchemeOptions.DEFAULT_STARVATION_THRESHOLD, false));
        assertEquals(4.0, cct[0], 1e-9, scheme + " seed " + seed); // both reducers on R1
      }
    }
  }

  @Test
  void placementWeighsTheSendersToo() {
    // Keeping r0 local on H0 would leave H3's slow uplink (2.5e7 B/s) sending 163 MB: 6.52 s.
    // Placing r0 on H3 and r1 on H0 takes 3.76 s; rpc must find it (review finding).
    List<Host> hosts =
        List.of(
            new Host("H0", 1.25e8, 5e9, Host.UNLIMITED_SLOTS, true),
            Host.sender("H1", 6.25e7),
            new Host("H3", 1.25e8, 2.5e7, Host.UNLIMITED_SLOTS, true),
            Host.sender("H4", 6.25e7));
    Instance inst =
        new Instance(
            hosts,
            List.of(
                new Coflow(
                    "C",
                    0,
                    List.of(Reducer.free("r0"), Reducer.free("r1")),
                    List.of(
                        new Flow(0, 0, 182e6),
                        new Flow(1, 0, 6.6e6),
                        new Flow(2, 0, 163e6),
                        new Flow(3, 0, 172e6),
                        new Flow(1, 1, 164e6),
                        new Flow(3, 1, 63e6)))));
    double[] cct = ccts(inst, "rpc", SchemeOptions.defaults());
    assertEquals(3.76, cct[0], 0.01);
  }

  @Test
  void placementFreesTwoSlowSendersAtOnce() {
    // Six hosts hold 6 MB each, 1 MB for each of six reducers; H4 and H5 run at half rate. With
    // no reducer on them, both slow uplinks send all 6 MB: 6 / 0.5 = 12 s. One reducer on each
    // keeps 1 MB local there: 5 MB out and 5 MB in at 0.5 MB/s, 10 s, which no placement beats.
    // Moving one reducer alone leaves the other slow uplink at 12 s; rpc must still get there.
    List<Host> hosts = new ArrayList<>();
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int h = 0; h < 6; h++) {
      double rate = h < 4 ? 1e6 : 0.5e6;
      hosts.add(new Host("H" + h, rate, rate, Host.UNLIMITED_SLOTS, true));
      reducers.add(Reducer.free("r" + h));
      for (int r = 0; r < 6; r++) {
        flows.add(new Flow(h, r, 1e6));
      }
    }
    Instance inst = new Instance(hosts, List.of(new Coflow("C", 0, reducers, flows)));
    assertEquals(10.0, ccts(inst, "rpc", SchemeOptions.defaults())[0], 1e-9);
  }

  @Test
  void aSenderWaitingForItsOwnLinkKeepsItsBytesBooked() {
    // Three shuffles over six hosts (H4 and H5 at half rate), as bench terasort-yarn runs them:
    // shuffle k (1 MB, 2 MB, 3 MB per host pair) arrives at 3(k - 1) s, six reducers, input spread
    // evenly. With one reducer of every shuffle on each slow host, each slow link carries 5k MB of
    // shuffle k both ways: 30 MB in all, so the last shuffle ends at 30 / 0.5 = 60 s, and no
    // placement ends it sooner. Placing the last shuffle, rpc must see that the slow hosts' uplinks
    // still owe the earlier shuffles' bytes, although those wait behind a link that is full now:
    // when they were not booked, it put no reducer on one slow host, whose uplink then sent 18 MB
    // of the last shuffle, 33 MB in all: 66 s.
    List<Host> hosts = new ArrayList<>();
    for (int h = 0; h < 6; h++) {
      double rate = h < 4 ? 1e6 : 0.5e6;
      hosts.add(new Host("H" + h, rate, rate, Host.UNLIMITED_SLOTS, true));
    }
    List<Coflow> shuffles = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      for (int r = 0; r < 6; r++) {
        reducers.add(Reducer.free("s" + k + ".r" + r));
        for (int h = 0; h < 6; h++) {
          flows.add(new Flow(h, r, k * 1e6));
        }
      }
      shuffles.add(new Coflow("S" + k, 3 * (k - 1), reducers, flows));
    }
    double[] cct = ccts(new Instance(hosts, shuffles), "rpc", SchemeOptions.defaults());
    assertEquals(60.0 - 6.0, cct[2], 1e-9);
  }

  @Test
  void aPlanIsPolishedBeforeItLosesItsTurn() {
    // H0 at 1 MB/s, H1 and H2 at 0.25 MB/s. A (29 MB, arrives at 0) has 26 s or more left when B
    // (18 MB, two reducers) arrives at 2 s. B alone takes 16 s with r0 on H1, which keeps H1's
    // 6 MB for r0 local: H1's link in then carries r0's other 4 MB, and H2's out 1 + 3 MB, 16 s
    // each. Placed by where it receives fastest, r0 would leave H1 to send 9 MB (36 s): on that
    // estimate B lost its turn to A, and A ended at 28 s, B at 44 s (average 35 s). Polished
    // before the order is settled, B goes first: 16 s, and A ends at 44 s (average 30 s).
    List<Host> hosts =
        List.of(
            new Host("H0", 1e6, 1e6, Host.UNLIMITED_SLOTS, true),
            new Host("H1", 0.25e6, 0.25e6, Host.UNLIMITED_SLOTS, true),
            new Host("H2", 0.25e6, 0.25e6, Host.UNLIMITED_SLOTS, true));
    double[][] a = {{2, 4, 3}, {6, 2, 4}, {3, 1, 4}}; // MB from host h to reducer r
    double[][] b = {{3, 2}, {6, 3}, {1, 3}};
    Instance inst = new Instance(hosts, List.of(coflow("A", 0, a), coflow("B", 2, b)));
    double[] cct = ccts(inst, "rpc", SchemeOptions.defaults());
    assertEquals(16.0, cct[1], 1e-9);
    assertEquals(44.0, cct[0], 1e-9);
  }

  private static Coflow coflow(String id, double arrival, double[][] mbFromHostToReducer) {
    List<Reducer> reducers = new ArrayList<>();
    for (int r = 0; r < mbFromHostToReducer[0].length; r++) {
      reducers.add(Reducer.free(id + ".r" + r));
    }
    List<Flow> flows = new ArrayList<>();
    for (int h = 0; h < mbFromHostToReducer.length; h++) {
      for (int r = 0; r < reducers.size(); r++) {
        flows.add(new Flow(h, r, mbFromHostToReducer[h][r] * 1e6));
      }
    }
    return new Coflow(id, arrival, reducers, flows);
  }
}
