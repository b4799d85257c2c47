/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.lp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.coflowshuffle.core.placement.RateBound;
import org.junit.jupiter.api.Test;

/** LP (3) solved by ojalgo agrees with {@link RateBound}'s closed form. */
class RateBoundLpTest {

  private final RateBoundLp lp = new RateBoundLp();

  @Test
  void closedFormEqualsTheLpOnRandomInstances() {
    Random random = new Random(3);
    int instances = 400;
    double worst = 0;
    for (int i = 0; i < instances; i++) {
      int hosts = 1 + random.nextInt(6);
      int flows = 1 + random.nextInt(12);
      double[] bytes = new double[flows];
      int[] sender = new int[flows];
      for (int k = 0; k < flows; k++) {
        bytes[k] = random.nextDouble() < 0.1 ? 0 : 1e6 * (0.01 + random.nextDouble());
        sender[k] = random.nextInt(hosts);
      }
      double[] out = new double[hosts];
      for (int u = 0; u < hosts; u++) {
        out[u] = 1e5 * (0.1 + random.nextDouble());
      }
      double sumBin = 1e5 * (0.1 + hosts * random.nextDouble());
      double closed = RateBound.maxFrequency(bytes, sender, out, sumBin);
      double solved = lp.maxFrequency(bytes, sender, out, sumBin);
      if (Double.isInfinite(closed)) {
        assertEquals(closed, solved, "instance " + i);
      } else {
        assertEquals(closed, solved, 1e-6 * closed, "instance " + i);
        worst = Math.max(worst, Math.abs(solved - closed) / closed);
      }
    }
    System.out.printf(
        "LP (3) vs closed form, %d instances: worst relative difference %.2e%n", instances, worst);
  }

  @Test
  void noBytesIsUnbounded() {
    double f = lp.maxFrequency(new double[] {0, 0}, new int[] {0, 1}, new double[] {1, 1}, 5);
    assertEquals(Double.POSITIVE_INFINITY, f);
    assertEquals(
        Double.POSITIVE_INFINITY,
        RateBound.maxFrequency(new double[] {0, 0}, new int[] {0, 1}, new double[] {1, 1}, 5));
  }

  @Test
  void aSilentSenderBindsAtZero() {
    double[] bytes = {10, 10};
    int[] sender = {0, 1};
    double[] out = {0, 4};
    assertEquals(0, lp.maxFrequency(bytes, sender, out, 100), 1e-12);
    assertEquals(0, RateBound.maxFrequency(bytes, sender, out, 100));
  }

  @Test
  void unlimitedBandwidthsAreDroppedConstraints() {
    double inf = Double.POSITIVE_INFINITY;
    double[] bytes = {10, 30};
    int[] sender = {0, 1};
    double[] out = {inf, 6};
    assertEquals(0.2, lp.maxFrequency(bytes, sender, out, inf), 1e-12);
    assertEquals(0.2, RateBound.maxFrequency(bytes, sender, out, inf), 1e-15);
  }
}
