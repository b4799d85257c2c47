/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.util;

/**
 * Orders item numbers by a key each, largest first, ties in their given order: what sorting boxed
 * {@code Integer}s with a comparator gives, without boxing. Placement sorts every eligible host by
 * the bytes it can take at each step of a bisection, so the sort runs often and on every host, and
 * should allocate no box per host.
 */
public final class StableOrder {

  private StableOrder() {}

  /** Sorts {@code items}, in place, by {@code key[item]} descending; stable. */
  public static void byKeyDescending(int[] items, double[] key) {
    if (items.length < 2) {
      return;
    }
    int[] buffer = new int[items.length];
    sort(items, buffer, 0, items.length, key);
  }

  /** Merge sort of {@code a[from..to)}, using {@code b} as scratch. */
  private static void sort(int[] a, int[] b, int from, int to, double[] key) {
    if (to - from <= 16) {
      for (int i = from + 1; i < to; i++) { // insertion sort: stable, only moves past smaller keys
        int item = a[i];
        int j = i - 1;
        while (j >= from && key[a[j]] < key[item]) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = item;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    sort(a, b, from, mid, key);
    sort(a, b, mid, to, key);
    if (!(key[a[mid - 1]] < key[a[mid]])) {
      return; // already in order across the halves
    }
    System.arraycopy(a, from, b, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      // take from the right half only when strictly larger: ties keep the left (earlier) first
      a[k] = j >= to || (i < mid && !(key[b[i]] < key[b[j]])) ? b[i++] : b[j++];
    }
  }
}
