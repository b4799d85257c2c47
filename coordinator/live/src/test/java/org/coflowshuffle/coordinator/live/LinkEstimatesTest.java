/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkEstimatesTest {

  private static final double MB = 1e6;
  private static final double W = LinkEstimates.WINDOW_SECONDS;

  /**
   * One window in which {@code a} sends to {@code b} with the rate planned for a's link out (and
   * b's in) and delivers what the slower of a's real link and the plan allows.
   */
  private static boolean window(LinkEstimates l, double start, double planned, double capacity) {
    l.planned(start, Map.of("a", new double[] {0, planned}, "b", new double[] {planned, 0}));
    l.delivered("a", "b", Math.min(planned, capacity) * W);
    return l.tick(start + W);
  }

  /** Windows from {@code start} on, each planned at the estimate, until {@code until}. */
  private static double windows(LinkEstimates l, double start, int count, double capacity) {
    double t = start;
    for (int i = 0; i < count; i++, t += W) {
      window(l, t, l.effective("a", LinkEstimates.OUT), capacity);
    }
    return t;
  }

  @Test
  void aLinkShapedBelowItsNicIsFoundInTwoWindows() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // a veth says 10 Gbit/s
    assertEquals(1250 * MB, l.effective("a", LinkEstimates.OUT));
    assertEquals(
        LinkEstimates.UNKNOWN_LINK, l.effective("x", LinkEstimates.IN), "no NIC speed: measured");
    l.tick(0);
    assertFalse(window(l, 0, 1250 * MB, 1.19 * MB), "one window short says little");
    assertTrue(window(l, W, 1250 * MB, 1.19 * MB));
    assertEquals(1.19 * MB, l.effective("a", LinkEstimates.OUT), 1e-6, "what it carried");
    windows(l, 2 * W, 10, 1.19 * MB);
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "it stays");
  }

  @Test
  void theDirectionAShuffleNeverFilledTakesTheSpeedTheOtherShowedUntilItCarriesMore() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // a veth that says 10 Gbit/s, shaped to 1.19 MB/s both ways
    l.nominal("c", 1250 * MB);
    l.tick(0);
    double t = windows(l, 0, 2, 1.19 * MB); // a sends; nothing was ever sent to it
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6);
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.IN], 1e-6, "one NIC, one speed");
    l.planned(t, Map.of("c", new double[] {0, 0.5 * MB}, "a", new double[] {0.5 * MB, 0}));
    l.delivered("c", "a", 2 * MB * W); // but a's link in carries more than its link out
    l.tick(t + W);
    assertEquals(2 * MB, l.estimates().get("a")[LinkEstimates.IN], 1e-6, "what it carried");
  }

  @Test
  void aSmallPlanThatFallsShortOnceLeavesTheLinkAsItWas() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1.19 * MB); // as configured
    l.tick(0);
    window(l, 0, 0.12 * MB, 0.04 * MB); // a stage's first fetches, not yet asking for everything
    window(l, W, 0.12 * MB, 0.12 * MB);
    window(l, 2 * W, 0.12 * MB, 0.04 * MB);
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6);
  }

  @Test
  void anEstimateAtTheLinksSpeedStaysThereWhileProbing() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB);
    l.tick(0);
    double t = windows(l, 0, 12, 10 * MB);
    for (int i = 0; i < 20; i++, t += W) {
      window(l, t, l.effective("a", LinkEstimates.OUT), 10 * MB);
      assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "window " + i);
      assertTrue(l.effective("a", LinkEstimates.OUT) <= 10 * MB * LinkEstimates.PROBE_GAIN + 1e-6);
    }
  }

  @Test
  void aFetchThatDeliversLittleForAWhileDoesNotMakeTheLinkSlower() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB);
    l.tick(0);
    double t = windows(l, 0, 5, 10 * MB);
    window(l, t, 10 * MB, 1 * MB); // a reduce task that had not asked for its blocks yet
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "it carried 10 lately");
    // A minute and a half of a stage's last flows, delivering a tenth of what was planned.
    for (int w = 0; w < 45; w++) {
      window(l, t += W, 10 * MB, 1 * MB);
    }
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "it carried 10");
  }

  @Test
  void anEstimatePulledLowClimbsBackToTheLinksSpeed() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB);
    l.tick(0);
    // Its flows were held back elsewhere: 4 of its 10 MB/s.
    double t = windows(l, 0, 12, 4 * MB);
    assertEquals(4 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6);
    windows(l, t, 40, 10 * MB);
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6);
  }

  @Test
  void onlyTheLinkThatHeldItsFlowsBackIsLowered() {
    LinkEstimates l = new LinkEstimates();
    for (String m : new String[] {"a", "b", "c"}) {
      l.nominal(m, 10 * MB); // as configured
    }
    l.tick(0);
    // a sends 10 MB/s each to b and c (a's link out planned at 20). Other traffic leaves b's link
    // in 6 MB/s: a's flow to b, and so a's link out, fall short, but b's in fell shorter.
    for (int i = 0; i < LinkEstimates.HELD_TO_LOWER; i++) {
      l.planned(
          i * W,
          Map.of(
              "a", new double[] {0, 20 * MB},
              "b", new double[] {10 * MB, 0},
              "c", new double[] {10 * MB, 0}));
      l.delivered("a", "b", 6 * MB * W);
      l.delivered("a", "c", 10 * MB * W);
      assertEquals(i == LinkEstimates.HELD_TO_LOWER - 1, l.tick((i + 1) * W), "window " + i);
    }
    assertEquals(6 * MB, l.estimates().get("b")[LinkEstimates.IN], 1e-6, "what other traffic left");
    assertEquals(10 * MB, l.estimates().get("b")[LinkEstimates.OUT], 1e-6, "as configured");
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "held back at b");
    assertEquals(10 * MB, l.estimates().get("c")[LinkEstimates.IN], 1e-6);
  }

  @Test
  void anIdleLinkKeepsItsEstimateAndNothingChangesMidWindow() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 100 * MB);
    l.tick(0);
    window(l, 0, 100 * MB, 10 * MB);
    window(l, W, 100 * MB, 10 * MB);
    l.planned(2 * W, Map.of()); // its flows ended
    assertFalse(l.tick(2.5 * W), "the next window is not over");
    assertFalse(l.tick(3 * W), "nothing planned, nothing delivered");
    assertEquals(10 * MB, l.effective("a", LinkEstimates.OUT), 1e-6, "what it delivered");
    l.nominal("a", 5 * MB); // a NIC slower than measured bounds the estimate
    assertEquals(5 * MB, l.effective("a", LinkEstimates.OUT), 1e-6);
  }

  /**
   * Windows in which {@code a} sends to {@code b} at b's estimate while {@code other} bytes per
   * second of other traffic also arrive at b, whose link carries {@code capacity}: the flow gets
   * what the other traffic leaves, and the interfaces count what they carry (with headers) each
   * second.
   */
  private static double sharedWindows(
      LinkEstimates l, double start, int count, double capacity, double other) {
    double t = start;
    double received = 0;
    double sent = 0;
    for (int i = 0; i < count; i++) {
      double planned = l.effective("b", LinkEstimates.IN);
      l.planned(t, Map.of("a", new double[] {0, planned}, "b", new double[] {planned, 0}));
      double flow = Math.min(planned, capacity - other);
      for (int s = 0; s < W; s++, t += 1) {
        l.delivered("a", "b", flow);
        received += (flow + other) / LinkEstimates.PAYLOAD;
        sent += flow / LinkEstimates.PAYLOAD;
        l.counted("a", t + 1, 0, sent, t + 1);
        l.counted("b", t + 1, received, 0, t + 1);
      }
    }
    return t;
  }

  @Test
  void otherTrafficTheInterfaceCountsIsTakenOffTheLink() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1.19 * MB);
    l.nominal("b", 1.19 * MB); // as configured: 10 Mbit/s, in payload
    l.counted("a", 0, 0, 0, 0);
    l.counted("b", 0, 0, 0, 0);
    sharedWindows(l, 0, 10, 1.19 * MB, 0.5 * MB);
    assertEquals(0.69 * MB, l.estimates().get("b")[LinkEstimates.IN], 0.01 * MB);
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "a's link is its own");
  }

  @Test
  void theAcknowledgementsOfAMachinesOwnFlowsAreNotOtherTraffic() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1.19 * MB);
    l.nominal("b", 1.19 * MB);
    l.counted("a", 0, 0, 0, 0);
    l.counted("b", 0, 0, 0, 0);
    double slow = 0.59 * MB; // a sends at half its link and receives at all of it
    double fast = 1.19 * MB;
    double acks = 0.04; // of the payload one way, the other way
    double[] a = new double[2];
    double[] b = new double[2];
    for (int t = 0; t < 10 * W; t++) {
      if (t % W == 0) {
        l.planned(t, Map.of("a", new double[] {fast, slow}, "b", new double[] {slow, fast}));
      }
      l.delivered("a", "b", slow);
      l.delivered("b", "a", fast);
      a[0] += (fast + acks * slow) / LinkEstimates.PAYLOAD;
      a[1] += (slow + acks * fast) / LinkEstimates.PAYLOAD;
      b[0] += (slow + acks * fast) / LinkEstimates.PAYLOAD;
      b[1] += (fast + acks * slow) / LinkEstimates.PAYLOAD;
      l.counted("a", t + 1, a[0], a[1], t + 1);
      l.counted("b", t + 1, b[0], b[1], t + 1);
    }
    for (String m : new String[] {"a", "b"}) {
      for (int d = LinkEstimates.IN; d <= LinkEstimates.OUT; d++) {
        assertEquals(fast, l.estimates().get(m)[d], 1e-6, m + " " + d + ": no other traffic");
      }
    }
  }

  @Test
  void aShapedLinkIsFoundFromWhatItsInterfaceCarriedWithOtherTraffic() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // veths that say 10 Gbit/s
    l.nicSpeed("b", 1250 * MB);
    l.counted("a", 0, 0, 0, 0);
    l.counted("b", 0, 0, 0, 0);
    sharedWindows(l, 0, 12, 1.19 * MB, 0.5 * MB);
    assertEquals(0.69 * MB, l.estimates().get("b")[LinkEstimates.IN], 0.02 * MB, "what is left");
  }

  @Test
  void aCountFromAnotherExecutorOnTheMachineIsNotCountedTwice() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("b", 10 * MB);
    l.counted("b", 0, 0, 0, 0);
    l.planned(0, Map.of("b", new double[] {2 * MB, 0}));
    for (int s = 1; s <= W; s++) {
      l.delivered("a", "b", 2 * MB);
      l.counted("b", s, 2 * MB * s / LinkEstimates.PAYLOAD, 0, s);
      l.counted("b", s + 0.1, 2 * MB * s / LinkEstimates.PAYLOAD, 0, s + 0.1); // the same count
    }
    l.tick(W + 0.5);
    assertEquals(10 * MB, l.estimates().get("b")[LinkEstimates.IN], 1e-6, "no other traffic");
  }

  @Test
  void theLinkTwoSendersShareIsFoundBehindThem() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1.19 * MB); // senders as configured
    l.nominal("c", 1.19 * MB);
    l.nicSpeed("b", 1250 * MB); // the receiver's veth says 10 Gbit/s; it carries 1.19 MB/s
    for (String m : new String[] {"a", "b", "c"}) {
      l.counted(m, 0, 0, 0, 0);
    }
    double[] bytes = new double[3];
    for (int w = 0; w < 4; w++) {
      double each = Math.min(1.19 * MB, l.effective("b", LinkEstimates.IN) / 2);
      l.planned(
          w * W,
          Map.of(
              "a", new double[] {0, each},
              "c", new double[] {0, each},
              "b", new double[] {2 * each, 0}));
      double got = Math.min(each, 1.19 * MB / 2); // each sender gets half of what b takes in
      for (int s = 1; s <= W; s++) {
        double t = w * W + s;
        l.delivered("a", "b", got);
        l.delivered("c", "b", got);
        bytes[0] += got / LinkEstimates.PAYLOAD;
        bytes[1] += 2 * got / LinkEstimates.PAYLOAD;
        bytes[2] += got / LinkEstimates.PAYLOAD;
        l.counted("a", t, 0, bytes[0], t);
        l.counted("c", t, 0, bytes[2], t);
        l.counted("b", t, bytes[1], 0, t);
      }
    }
    assertEquals(1.19 * MB, l.estimates().get("b")[LinkEstimates.IN], 0.01 * MB, "found");
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "not a's");
    assertEquals(1.19 * MB, l.estimates().get("c")[LinkEstimates.OUT], 1e-6, "not c's");
  }

  @Test
  void aLinkIsTakenAtItsBusiestStretchNotAtAWindowsMean() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // veths that say 10 Gbit/s; a's link carries 1.19 MB/s
    l.nicSpeed("b", 1250 * MB);
    l.counted("a", 0, 0, 0, 0);
    l.counted("b", 0, 0, 0, 0);
    double sent = 0;
    for (int w = 0; w < 4; w++) { // flows busy from the middle of one window to that of the next
      double planned = l.effective("a", LinkEstimates.OUT);
      l.planned(w * W, Map.of("a", new double[] {0, planned}, "b", new double[] {planned, 0}));
      for (int s = 1; s <= W; s++) {
        double t = w * W + s;
        double bytes = t == 2 || t == 3 || t == 6 || t == 7 ? 1.19 * MB : 0;
        l.delivered("a", "b", bytes);
        sent += bytes / LinkEstimates.PAYLOAD;
        l.counted("a", t, 0, sent, t);
        l.counted("b", t, sent, 0, t);
      }
    }
    assertEquals(0.60 * MB, 1.19 * MB / W, 0.01 * MB, "no window carried more than this");
    assertEquals(
        1.19 * MB, l.estimates().get("a")[LinkEstimates.LINK_OUT], 1e-6, "its busiest 2 s");
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "no other traffic");
  }

  @Test
  void aShapersBurstAfterTheLinkIdledIsNotTakenForItsSpeed() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // veths that say 10 Gbit/s; a's link is shaped to 2 Mbit/s
    l.nicSpeed("b", 1250 * MB);
    l.counted("a", 0, 0, 0, 0);
    l.counted("b", 0, 0, 0, 0);
    double rate = 0.25 * MB;
    double burst = 64 * 1024; // the token bucket, full after a's link idled, lets this through
    double sent = 0;
    for (int w = 0; w < 5; w++) { // idle for a second, then busy
      double planned = l.effective("a", LinkEstimates.OUT);
      l.planned(w * W, Map.of("a", new double[] {0, planned}, "b", new double[] {planned, 0}));
      for (int s = 1; s <= W; s++) {
        double t = w * W + s;
        double bytes = t == 1 ? 0 : t == 2 ? rate + burst : rate;
        l.delivered("a", "b", bytes);
        sent += bytes / LinkEstimates.PAYLOAD;
        l.counted("a", t, 0, sent, t);
        l.counted("b", t, sent, 0, t);
      }
    }
    assertTrue((2 * rate + burst) / W > 1.12 * rate, "the stretch the burst starts");
    assertEquals(rate, l.estimates().get("a")[LinkEstimates.LINK_OUT], 0.01 * rate, "its rate");
  }

  /**
   * Two senders, each shaped to 1.19 MB/s behind a veth, send alike to two receivers whose links
   * are free: every link is at its NIC's 10 Gbit/s and falls short of plans that speed allows.
   */
  private static LinkEstimates twoByTwo() {
    LinkEstimates l = new LinkEstimates();
    for (String m : new String[] {"a", "b", "c", "d"}) {
      l.nicSpeed(m, 1250 * MB);
    }
    l.tick(0);
    for (int w = 0; w < 3; w++) {
      double each =
          Math.min(l.effective("a", LinkEstimates.OUT), l.effective("b", LinkEstimates.IN)) / 2;
      Map<String, Double> toBoth = Map.of("b", each, "d", each);
      l.planned(
          w * W,
          Map.of(
              "a", new double[] {0, 2 * each},
              "c", new double[] {0, 2 * each},
              "b", new double[] {2 * each, 0},
              "d", new double[] {2 * each, 0}),
          Map.of("a", toBoth, "c", toBoth));
      double got = Math.min(each, 1.19 * MB / 2); // each sender halves what it sends
      for (String from : new String[] {"a", "c"}) {
        for (String to : new String[] {"b", "d"}) {
          l.delivered(from, to, got * W);
        }
      }
      l.tick((w + 1) * W);
    }
    return l;
  }

  @Test
  void receiversWhoseSendersSlowedAllTheirFlowsAlikeAreNotLowered() {
    LinkEstimates l = twoByTwo();
    assertEquals(1250 * MB, l.estimates().get("b")[LinkEstimates.IN], 1e-6, "b held nothing back");
    assertEquals(1250 * MB, l.estimates().get("d")[LinkEstimates.IN], 1e-6);
  }

  @Test
  void linksThatCarriedAsMuchAsOneMeasuredBehindTheirKindOfNicAreTakenAtItsSpeed() {
    LinkEstimates l = twoByTwo(); // every link carried 1.19 MB/s, none can be told from another
    for (String m : new String[] {"x", "y", "z"}) {
      l.nicSpeed(m, 1250 * MB);
    }
    l.nicSpeed("slow", 125 * MB); // a NIC of another speed
    // x's link out, shaped to 1.19 MB/s, holds back its flows to y and z
    double t = 3 * W;
    for (int w = 0; w < LinkEstimates.HELD_TO_LOWER; w++, t += W) {
      double each = l.effective("x", LinkEstimates.OUT) / 2;
      l.planned(
          t,
          Map.of(
              "x", new double[] {0, 2 * each},
              "y", new double[] {each, 0},
              "z", new double[] {each, 0}));
      l.delivered("x", "y", 1.19 * MB / 2 * W);
      l.delivered("x", "z", 1.19 * MB / 2 * W);
      l.tick(t + W);
    }
    Map<String, double[]> e = l.estimates();
    assertEquals(1.19 * MB, e.get("x")[LinkEstimates.OUT], 1e-6, "measured");
    assertEquals(1.19 * MB, e.get("b")[LinkEstimates.IN], 1e-6, "carried as much as x");
    assertEquals(1.19 * MB, e.get("a")[LinkEstimates.OUT], 1e-6);
    assertEquals(1250 * MB, e.get("y")[LinkEstimates.IN], 1e-6, "carried half: not known");
    assertEquals(125 * MB, e.get("slow")[LinkEstimates.IN], 1e-6, "no link of its speed measured");
    // Beyond the plan (idle bandwidth handed out), b's link carries more than x's speed.
    l.planned(t, Map.of("a", new double[] {0, 1.19 * MB}, "b", new double[] {1.19 * MB, 0}));
    l.delivered("a", "b", 3 * MB * W);
    l.tick(t + W);
    assertEquals(3 * MB, l.estimates().get("b")[LinkEstimates.IN], 1e-6, "what it carried");
    assertEquals(1.19 * MB, l.estimates().get("d")[LinkEstimates.IN], 1e-6, "the nearest speed");
  }

  @Test
  void aLinkIsNotTakenAtASpeedClearlyBelowWhatItCarried() {
    LinkEstimates l = new LinkEstimates();
    for (String m : new String[] {"x", "y", "z"}) {
      l.nicSpeed(m, 1250 * MB);
    }
    l.tick(0);
    // x (0.6 MB/s out) and y (1 MB/s out) both send to z, planned at the veth's speed: x's link is
    // measured first, but y's carried more than that
    for (int w = 0; w < LinkEstimates.HELD_TO_LOWER; w++) {
      l.planned(
          w * W,
          Map.of(
              "x", new double[] {0, 625 * MB},
              "y", new double[] {0, 625 * MB},
              "z", new double[] {1250 * MB, 0}));
      l.delivered("x", "z", 0.6 * MB * W);
      l.delivered("y", "z", 1.0 * MB * W);
      l.tick((w + 1) * W);
    }
    Map<String, double[]> e = l.estimates();
    assertEquals(0.6 * MB, e.get("x")[LinkEstimates.OUT], 1e-6);
    assertEquals(1250 * MB, e.get("y")[LinkEstimates.OUT], 1e-6, "not x's speed: unknown");
  }

  @Test
  void aLinkLoweredWhileItsFlowsStartedRisesAsSoonAsItCarriesMore() {
    LinkEstimates l = new LinkEstimates();
    l.nicSpeed("a", 1250 * MB); // a veth; its link carries 1.19 MB/s
    l.counted("a", 0, 0, 0, 0);
    double sent = 0;
    double[] carried = {0.8 * MB, 0.8 * MB, 1.19 * MB}; // its fetches were still starting
    for (int w = 0; w < carried.length; w++) {
      double planned = l.effective("a", LinkEstimates.OUT);
      l.planned(w * W, Map.of("a", new double[] {0, planned}, "b", new double[] {planned, 0}));
      for (int s = 1; s <= W; s++) {
        double t = w * W + s;
        l.delivered("a", "b", carried[w]); // idle bandwidth is handed out beyond the plan
        sent += carried[w] / LinkEstimates.PAYLOAD;
        l.counted("a", t, 0, sent, t);
      }
      if (w == 1) {
        assertEquals(0.8 * MB, l.estimates().get("a")[LinkEstimates.LINK_OUT], 1e-6, "lowered");
      }
    }
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.LINK_OUT], 1e-6, "at once");
  }
}
