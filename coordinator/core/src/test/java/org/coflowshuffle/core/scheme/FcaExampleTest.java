/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/**
 * The FCA paper's Fig. 5: transfers Ta (fa1 over s1-d1, fa2 over s3-d3) and Tb (fb1 over s2-d2, fb2
 * over s3-d3), 30 Mbit per flow; link s1-d1 carries 5 Mbps, s2-d2 10 (or 15), s3-d3 15, the rest
 * 30. Units here are Mbit and seconds.
 */
class FcaExampleTest {

  private static Instance fig5(double s2, double tbArrival) {
    List<Host> hosts =
        List.of(
            Host.sender("s1", 5),
            Host.sender("s2", s2),
            Host.sender("s3", 15),
            Host.of("d1", 30, 30),
            Host.of("d2", 30, 30),
            Host.of("d3", 30, 30));
    return new Instance(
        hosts,
        List.of(
            PaperExamples.pinned("Ta", 0, new double[][] {{0, 3, 30}, {2, 5, 30}}),
            PaperExamples.pinned("Tb", tbArrival, new double[][] {{1, 4, 30}, {2, 5, 30}})));
  }

  private static void assertCcts(Schedule s, double ta, double tb) {
    assertEquals(ta, s.coflows().get(0).cct(), 1e-9);
    assertEquals(tb, s.coflows().get(1).cct(), 1e-9);
  }

  @Test
  void rateLimitingTheNonBottleneckFlowSpeedsTheOtherTransfer() {
    System.out.println("FCA Fig. 5, paper: fair sharing Ta 6 s, Tb 4 s; rate limiting 6 s, 3 s");
    assertCcts(PaperExamples.run("Fig. 5", "fair", fig5(10, 0)), 6, 4);
    assertCcts(PaperExamples.run("Fig. 5", "fca", fig5(10, 0)), 6, 3);
  }

  @Test
  void workConservationServesTheTransferThatArrivesLater() {
    System.out.println(
        "FCA Fig. 5, Tb at 2 s, s2-d2 15 Mbps, paper: with work conservation 6 s, 2 s");
    assertCcts(PaperExamples.run("Fig. 5 late", "fca", fig5(15, 2)), 6, 2);
  }

  @Test
  void flowsThatEnterLaterChaseTheTransfersBottleneck() {
    // Transfer T: flow A (50 Mbit from a 5 Mbps sender) starts at once; flow B (30 Mbit) enters at
    // 2 s, when its reducer gets a slot of d2 (the only other host with slots; two reducers of
    // "first" hold them until then). A then needs 8 s more, so B is guaranteed just 30/8 Mbps and
    // a transfer U arriving at 2 s on B's sender gets the rest: U ends in 8/7 s, not the 2 s of
    // sharing fairly with B, and T still ends at 10 s.
    List<Host> hosts =
        List.of(
            Host.sender("slow", 5),
            Host.sender("fast", 30),
            Host.sender("other", 30),
            new Host("d1", 30, 30, 1, true),
            new Host("d2", 30, 30, 2, true));
    Instance staged =
        new Instance(
            hosts,
            List.of(
                first(),
                new Coflow(
                    "T",
                    0,
                    List.of(new Reducer("T.a", 3), Reducer.free("T.b")),
                    List.of(new Flow(0, 0, 50), new Flow(1, 1, 30))),
                PaperExamples.pinned("U", 2, new double[][] {{1, 4, 30}})));
    Schedule s = PaperExamples.run("staged", "fca", staged);
    assertEquals(2, s.coflows().get(0).cct(), 1e-9);
    assertEquals(10, s.coflows().get(1).cct(), 1e-9); // B ends with A: T is not delayed
    assertEquals(30 / 26.25, s.coflows().get(2).cct(), 1e-9);
    Schedule fair = PaperExamples.run("staged", "fair", staged);
    assertEquals(10, fair.coflows().get(1).cct(), 1e-9);
    assertEquals(2, fair.coflows().get(2).cct(), 1e-9);
  }

  /** Two reducers on d2 (host 4), 30 Mbit each from "other" (host 2): both end at 2 s. */
  private static Coflow first() {
    return new Coflow(
        "first",
        0,
        List.of(new Reducer("first.a", 4), new Reducer("first.b", 4)),
        List.of(new Flow(2, 0, 30), new Flow(2, 1, 30)));
  }
}
