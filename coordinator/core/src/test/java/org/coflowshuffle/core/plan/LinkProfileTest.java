/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Free bandwidth over time: when bytes get through, on profiles with many break points. */
class LinkProfileTest {

  @Test
  void bytesAreThroughExactlyAtTimeToCarryOnLongAndShortProfiles() {
    Random random = new Random(7);
    for (int trial = 0; trial < 300; trial++) {
      LinkProfile link = new LinkProfile(5, 1 + random.nextInt(10));
      int reservations = random.nextInt(40); // up to ~80 break points
      for (int r = 0; r < reservations; r++) {
        double from = 5 + random.nextDouble() * 100;
        link.reserve(from, from + random.nextDouble() * 20, random.nextDouble() * 8);
      }
      if (random.nextBoolean()) {
        link.consume(random.nextDouble() * 50);
      }
      for (int q = 0; q < 20; q++) {
        double bytes = random.nextDouble() * 400;
        double t = link.timeToCarry(bytes);
        if (t == Double.POSITIVE_INFINITY) {
          assertEquals(0, link.finalRate(), "only a link that ends at rate 0 never carries them");
          continue;
        }
        assertEquals(bytes, link.bytesBy(t), 1e-9 * Math.max(1, bytes), "trial " + trial);
        assertTrue(link.bytesBy(t - 1e-6) < bytes, "not earlier, trial " + trial);
      }
    }
  }

  @Test
  void bytesByIsTheSameWhetherAskedAfterEveryChangeOrOnlyAtTheEnd() {
    Random random = new Random(13);
    for (int trial = 0; trial < 300; trial++) {
      LinkProfile asked = new LinkProfile(1, 1 + random.nextInt(10));
      LinkProfile fresh = new LinkProfile(1, asked.rateNow());
      for (int change = 0; change < 30; change++) {
        double from = 1 + random.nextDouble() * 50;
        double to = from + random.nextDouble() * 20;
        double rate = random.nextDouble() * 4;
        switch (random.nextInt(3)) {
          case 0 -> {
            asked.reserve(from, to, rate);
            fresh.reserve(from, to, rate);
          }
          case 1 -> {
            asked.consume(rate * 3);
            fresh.consume(rate * 3);
          }
          default -> {
            asked.takeNow(rate / 4);
            fresh.takeNow(rate / 4);
          }
        }
        asked.bytesBy(1 + random.nextDouble() * 80); // builds the running sums, to be dropped
      }
      for (double t = 0; t < 90; t += 0.7) {
        assertEquals(fresh.bytesBy(t), asked.bytesBy(t), 0, "trial " + trial + " t " + t);
      }
    }
  }

  @Test
  void aConsumedLinkCarriesNothingUntilItIsReleased() {
    LinkProfile link = new LinkProfile(0, 2);
    assertEquals(3.0, link.consume(6), 1e-12); // all of it until t = 3
    assertEquals(0, link.rateNow());
    assertEquals(4.0, link.timeToCarry(2), 1e-12);
  }
}
