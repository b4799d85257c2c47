/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The heap against a sorted set of (key, item) doing the same random operations. */
class IndexedMinHeapTest {

  private record Entry(double key, int item) {}

  private static final Comparator<Entry> ORDER =
      Comparator.comparingDouble(Entry::key).thenComparingInt(Entry::item);

  @Test
  void givesTheSmallestKeyFirstThroughSetsRemovesAndFills() {
    Random rnd = new Random(3);
    int checked = 0;
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + rnd.nextInt(40);
      IndexedMinHeap heap = new IndexedMinHeap(1 + rnd.nextInt(n)); // grows below
      heap.ensureItems(n);
      TreeSet<Entry> reference = new TreeSet<>(ORDER);
      double[] keyOf = new double[n];
      boolean[] in = new boolean[n];
      for (int op = 0; op < 300; op++) {
        int item = rnd.nextInt(n);
        int kind = rnd.nextInt(10);
        if (kind < 6) { // keys from a small set, so that ties by item number are exercised
          double key = rnd.nextInt(8);
          if (in[item]) {
            reference.remove(new Entry(keyOf[item], item));
          }
          heap.set(item, key);
          reference.add(new Entry(key, item));
          keyOf[item] = key;
          in[item] = true;
        } else if (kind < 9) {
          heap.remove(item);
          if (in[item]) {
            reference.remove(new Entry(keyOf[item], item));
            in[item] = false;
          }
        } else {
          int count = rnd.nextInt(n + 1);
          int[] items = rnd.ints(0, n).distinct().limit(count).toArray();
          double[] keys = new double[items.length];
          reference.clear();
          Arrays.fill(in, false);
          for (int i = 0; i < items.length; i++) {
            keys[i] = rnd.nextInt(8);
            keyOf[items[i]] = keys[i];
            in[items[i]] = true;
            reference.add(new Entry(keys[i], items[i]));
          }
          heap.fill(items, keys, items.length);
        }
        assertEquals(reference.isEmpty(), heap.isEmpty());
        if (!reference.isEmpty()) {
          assertEquals(reference.first().item(), heap.first(), "trial " + trial + " op " + op);
          assertEquals(reference.first().key(), heap.firstKey());
          checked++;
        }
      }
      while (!reference.isEmpty()) { // draining gives every item in order
        Entry e = reference.pollFirst();
        assertEquals(e.item(), heap.first());
        heap.remove(heap.first());
      }
      assertTrue(heap.isEmpty());
    }
    assertTrue(checked > 40_000, "checked " + checked);
  }
}
