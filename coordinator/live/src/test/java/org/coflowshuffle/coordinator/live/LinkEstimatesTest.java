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
    l.nominal("a", 1250 * MB); // a veth says 10 Gbit/s
    assertEquals(1250 * MB, l.effective("a", LinkEstimates.OUT));
    assertEquals(
        LinkEstimates.UNKNOWN_LINK, l.effective("x", LinkEstimates.IN), "no NIC speed: measured");
    l.tick(0);
    assertTrue(window(l, 0, 1250 * MB, 1.19 * MB));
    assertEquals(2.38 * MB, l.effective("a", LinkEstimates.OUT), 1e-6, "twice what it delivered");
    windows(l, W, 1, 1.19 * MB);
    assertEquals(1.19 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6);
  }

  @Test
  void anEstimateAtTheLinksSpeedStaysThereWhileProbing() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1250 * MB);
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
    l.nominal("a", 1250 * MB);
    l.tick(0);
    double t = windows(l, 0, 5, 10 * MB);
    window(l, t, 10 * MB, 1 * MB); // a reduce task that had not asked for its blocks yet
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "it carried 10 lately");
  }

  @Test
  void anEstimatePulledLowClimbsBackToTheLinksSpeed() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 1250 * MB);
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
    l.planned(
        0,
        Map.of(
            "a", new double[] {0, 20 * MB},
            "b", new double[] {10 * MB, 0},
            "c", new double[] {10 * MB, 0}));
    l.delivered("a", "b", 6 * MB * W);
    l.delivered("a", "c", 10 * MB * W);
    assertTrue(l.tick(W));
    assertEquals(6 * MB, l.estimates().get("b")[LinkEstimates.IN], 1e-6, "what other traffic left");
    assertEquals(10 * MB, l.estimates().get("a")[LinkEstimates.OUT], 1e-6, "held back at b");
    assertEquals(10 * MB, l.estimates().get("c")[LinkEstimates.IN], 1e-6);
  }

  @Test
  void anIdleLinkKeepsItsEstimateAndNothingChangesMidWindow() {
    LinkEstimates l = new LinkEstimates();
    l.nominal("a", 100 * MB);
    l.tick(0);
    window(l, 0, 100 * MB, 10 * MB);
    l.planned(W, Map.of()); // its flows ended
    assertFalse(l.tick(W + 0.5), "the next window is not over");
    assertFalse(l.tick(2 * W), "nothing planned, nothing delivered");
    assertEquals(20 * MB, l.effective("a", LinkEstimates.OUT), 1e-6, "twice what it delivered");
    l.nominal("a", 5 * MB); // a NIC slower than measured bounds the estimate
    assertEquals(5 * MB, l.effective("a", LinkEstimates.OUT), 1e-6);
  }
}
