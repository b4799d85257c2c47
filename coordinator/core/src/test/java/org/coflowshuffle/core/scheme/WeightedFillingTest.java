/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Weighted max-min fair filling: by hand, and on random pair sets checked against what defines the
 * max-min fair allocation (no link over what it had, and every pair with weight has a full link on
 * which no other pair gets more per unit of weight), so that any filling passing it is the one.
 */
class WeightedFillingTest {

  @Test
  void twoFlowsShareALinkAndTheThirdTakesWhatIsLeftOfItsOwn() {
    // host 0 sends to 1 and 2 on 10 B/s out; host 2 also receives from 3; host 2's in is 8 B/s
    WeightedFilling f = new WeightedFilling(4);
    int a = f.add(0, 1, 1);
    int b = f.add(0, 2, 1);
    int c = f.add(3, 2, 1);
    double[] out = {10, 0, 0, 100};
    double[] in = {0, 100, 8, 0};
    double[] perWeight = f.fill(out, in);
    // host 2's in fills first at 4 each (b and c), then host 0's out gives a the other 6
    assertEquals(6, perWeight[a], 1e-12);
    assertEquals(4, perWeight[b], 1e-12);
    assertEquals(4, perWeight[c], 1e-12);
    assertArrayEquals(new double[] {0, 0, 0, 96}, out, 1e-12);
    assertArrayEquals(new double[] {0, 94, 0, 0}, in, 1e-12);
  }

  @Test
  void weightsShareInProportionAndAFullLinkGivesNothing() {
    WeightedFilling f = new WeightedFilling(3);
    int heavy = f.add(0, 2, 3);
    int light = f.add(1, 2, 1);
    int none = f.add(1, 0, 2); // host 0 has no incoming bandwidth left
    double[] perWeight = f.fill(new double[] {100, 100, 100}, new double[] {-1, 0, 12});
    // host 2's in (12 B/s) splits 3 : 1, so both pairs stand at 3 per unit of weight
    assertEquals(3, perWeight[heavy], 1e-12);
    assertEquals(3, perWeight[light], 1e-12);
    assertEquals(0, perWeight[none], 0);
  }

  @Test
  void pairsBetweenUnlimitedHostsAreRefused() {
    WeightedFilling f = new WeightedFilling(2);
    f.add(0, 1, 1);
    double inf = Double.POSITIVE_INFINITY;
    assertThrows(
        IllegalStateException.class,
        () -> f.fill(new double[] {inf, inf}, new double[] {inf, inf}));
  }

  @Test
  void randomFillingsAreMaxMinFair() {
    Random rnd = new Random(7);
    WeightedFilling[] byHosts = new WeightedFilling[11]; // reused, as the policies reuse theirs
    for (int trial = 0; trial < 2_000; trial++) {
      int hosts = 2 + rnd.nextInt(9);
      if (byHosts[hosts] == null) {
        byHosts[hosts] = new WeightedFilling(hosts);
      }
      WeightedFilling f = byHosts[hosts];
      int pairs = 1 + rnd.nextInt(hosts * hosts);
      int[] src = new int[pairs];
      int[] dst = new int[pairs];
      double[] w = new double[pairs];
      int[] id = new int[pairs];
      boolean bytes = rnd.nextBoolean(); // weights like remaining bytes, spread over decades
      for (int i = 0; i < pairs; i++) {
        src[i] = rnd.nextInt(hosts);
        dst[i] = rnd.nextInt(hosts);
        w[i] = bytes ? Math.pow(10, 12 * rnd.nextDouble()) : 1 + rnd.nextInt(3);
        if (rnd.nextInt(20) == 0) {
          w[i] = 0;
        }
        id[i] = f.add(src[i], dst[i], w[i]);
      }
      double[] out = new double[hosts];
      double[] in = new double[hosts];
      for (int j = 0; j < hosts; j++) {
        out[j] = rnd.nextInt(10) == 0 ? 0 : 1 + 1e4 * rnd.nextDouble();
        in[j] = rnd.nextInt(10) == 0 ? 0 : 1 + 1e4 * rnd.nextDouble();
      }
      double[] outAtStart = out.clone();
      double[] inAtStart = in.clone();
      double[] perWeight = f.fill(out, in);
      checkMaxMinFair(hosts, src, dst, w, id, perWeight, outAtStart, inAtStart, out, in);
    }
  }

  private static void checkMaxMinFair(
      int hosts,
      int[] src,
      int[] dst,
      double[] w,
      int[] id,
      double[] perWeight,
      double[] outAtStart,
      double[] inAtStart,
      double[] outLeft,
      double[] inLeft) {
    int n = perWeight.length;
    double[] pairWeight = new double[n];
    int[] pairSrc = new int[n];
    int[] pairDst = new int[n];
    for (int i = 0; i < id.length; i++) {
      pairWeight[id[i]] += w[i];
      pairSrc[id[i]] = src[i];
      pairDst[id[i]] = dst[i];
    }
    double[] outUsed = new double[hosts];
    double[] inUsed = new double[hosts];
    for (int p = 0; p < n; p++) {
      assertTrue(perWeight[p] >= 0, "pair " + p + " got " + perWeight[p]);
      outUsed[pairSrc[p]] += perWeight[p] * pairWeight[p];
      inUsed[pairDst[p]] += perWeight[p] * pairWeight[p];
    }
    for (int j = 0; j < hosts; j++) {
      assertTrue(outUsed[j] <= outAtStart[j] * (1 + 1e-9), "host " + j + " out over capacity");
      assertTrue(inUsed[j] <= inAtStart[j] * (1 + 1e-9), "host " + j + " in over capacity");
      assertEquals(outAtStart[j] - outUsed[j], outLeft[j], 1e-9 * outAtStart[j]);
      assertEquals(inAtStart[j] - inUsed[j], inLeft[j], 1e-9 * inAtStart[j]);
    }
    for (int p = 0; p < n; p++) {
      if (pairWeight[p] <= 0) {
        continue;
      }
      boolean outBottleneck =
          full(outUsed[pairSrc[p]], outAtStart[pairSrc[p]])
              && highestOnLink(p, perWeight, pairWeight, pairSrc, pairSrc[p]);
      boolean inBottleneck =
          full(inUsed[pairDst[p]], inAtStart[pairDst[p]])
              && highestOnLink(p, perWeight, pairWeight, pairDst, pairDst[p]);
      assertTrue(outBottleneck || inBottleneck, "pair " + p + " has no bottleneck link");
    }
  }

  private static boolean full(double used, double capacity) {
    return used >= capacity * (1 - 1e-9) - 1e-9;
  }

  /** No pair with weight on the same link gets more per unit of weight than p. */
  private static boolean highestOnLink(
      int p, double[] perWeight, double[] pairWeight, int[] end, int host) {
    for (int q = 0; q < perWeight.length; q++) {
      if (end[q] == host && pairWeight[q] > 0 && perWeight[q] > perWeight[p] * (1 + 1e-9)) {
        return false;
      }
    }
    return true;
  }
}
