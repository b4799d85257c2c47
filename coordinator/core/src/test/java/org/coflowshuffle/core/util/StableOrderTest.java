/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The order is that of a stable sort of boxed items by key, descending: ties keep their order. */
class StableOrderTest {

  @Test
  void ordersAsTheBoxedStableSortDoes() {
    Random rnd = new Random(3);
    for (int trial = 0; trial < 500; trial++) {
      int n = rnd.nextInt(200);
      double[] key = new double[n + 5];
      for (int i = 0; i < key.length; i++) {
        key[i] = rnd.nextInt(4) == 0 ? rnd.nextDouble() : rnd.nextInt(5); // many ties
      }
      int[] items = new int[n];
      for (int i = 0; i < n; i++) {
        items[i] = rnd.nextInt(key.length); // any items, in any order, repeats allowed
      }
      Integer[] boxed = Arrays.stream(items).boxed().toArray(Integer[]::new);
      Arrays.sort(boxed, (a, b) -> Double.compare(key[b], key[a]));
      StableOrder.byKeyDescending(items, key);
      assertArrayEquals(Arrays.stream(boxed).mapToInt(i -> i).toArray(), items, "trial " + trial);
    }
  }
}
