/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.coflowshuffle.spark.ui.HostRate;
import org.junit.jupiter.api.Test;

class HostTrafficTest {

  private static Map<List<Integer>, Map<String, double[]>> traffic(
      double inBytes, double outBytes) {
    return Map.of(
        List.of(1, 2),
        Map.of("a", new double[] {10, 0, inBytes, 0}, "b", new double[] {0, 10, 0, outBytes}));
  }

  @Test
  void theRatesNowAreWhatWasDeliveredSinceTheLastSampling() {
    HostTraffic t = new HostTraffic();
    t.sample(1_000, traffic(5, 5));
    assertEquals(Map.of(), t.now(), "one sampling is no span yet");
    t.sample(3_000, traffic(25, 45));
    assertArrayEquals(new double[] {10, 0, 10, 0}, t.now().get("a"), 1e-9);
    assertArrayEquals(new double[] {0, 10, 0, 20}, t.now().get("b"), 1e-9);
    t.sample(3_100, traffic(26, 45));
    assertArrayEquals(
        new double[] {10, 0, 10, 0}, t.now().get("a"), 1e-9, "a tenth of a second says little");
    t.sample(4_100, traffic(46, 45));
    assertArrayEquals(new double[] {10, 0, 20, 0}, t.now().get("a"), 1e-9);
  }

  @Test
  void aStageClaimsTheSeriesOfItsShufflesOnce() {
    HostTraffic t = new HostTraffic();
    t.sample(1_000, traffic(5, 5));
    t.sample(2_000, traffic(25, 45));
    assertEquals(List.of(), t.claim(List.of(1)), "a stage that read only one of them");
    List<HostRate> rates = t.claim(List.of(1, 2, 3));
    assertEquals(4, rates.size());
    assertEquals(new HostRate(2_000, "a", 10, 0, 25, 0), rates.get(2));
    assertEquals(List.of(), t.claim(List.of(1, 2)), "claimed already");
  }

  @Test
  void aLongCoflowKeepsBoundedSamplesAndItsLast() {
    HostTraffic t = new HostTraffic();
    for (int i = 0; i <= 2 * HostTraffic.MOST_SAMPLES; i++) {
      t.sample(1_000L * i, traffic(i, i));
    }
    List<HostRate> rates = t.claim(List.of(1, 2));
    assertTrue(rates.size() <= 2 * HostTraffic.MOST_SAMPLES, "" + rates.size());
    assertEquals(1_000L * 2 * HostTraffic.MOST_SAMPLES, rates.get(rates.size() - 1).atMillis());
    assertEquals(0, rates.get(0).atMillis() % 2_000, "every other one of the oldest went");
  }
}
