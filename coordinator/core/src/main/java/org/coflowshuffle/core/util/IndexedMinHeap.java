/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.util;

import java.util.Arrays;

/**
 * The items 0..n-1 that are in it, by a key each, smallest first (ties by item number): a heap over
 * primitive arrays that knows where each item is, so that an item's key can change in place. For
 * the loops that repeatedly take the next link to fill or the next host pair whose flow ends, where
 * a {@code PriorityQueue} of boxed entries would allocate at every change.
 *
 * <p>Four-ary, with each key stored beside its item in heap order: a quarter of a million pairs do
 * not fit in the cache, and a sift then reads four adjacent keys a level over half the levels of a
 * binary heap, instead of looking each child's key up by its item.
 */
public final class IndexedMinHeap {

  private int[] heap; // items, heap-ordered by key
  private double[] keyAt; // the key of heap[i]
  private int[] at; // per item, its index in heap, or -1
  private int size;

  /** An empty heap for the items 0..items-1. */
  public IndexedMinHeap(int items) {
    heap = new int[items];
    keyAt = new double[items];
    at = new int[items];
    Arrays.fill(at, -1);
  }

  /** Room for the items 0..items-1, keeping what is in it. */
  public void ensureItems(int items) {
    if (items > at.length) {
      int n = Math.max(items, 2 * at.length);
      int old = at.length;
      heap = Arrays.copyOf(heap, n);
      keyAt = Arrays.copyOf(keyAt, n);
      at = Arrays.copyOf(at, n);
      Arrays.fill(at, old, n, -1);
    }
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The item with the smallest key; the heap must not be empty. */
  public int first() {
    return heap[0];
  }

  /** The smallest key; the heap must not be empty. */
  public double firstKey() {
    return keyAt[0];
  }

  /** Adds the item, or moves it to its new key. */
  public void set(int item, double newKey) {
    int i = at[item];
    if (i < 0) {
      i = size++;
      heap[i] = item;
      at[item] = i;
    }
    keyAt[i] = newKey;
    siftDown(siftUp(i));
  }

  /** Takes the item out; nothing if it is not in. */
  public void remove(int item) {
    int i = at[item];
    if (i < 0) {
      return;
    }
    at[item] = -1;
    int last = --size;
    if (i < last) {
      heap[i] = heap[last];
      keyAt[i] = keyAt[last];
      at[heap[i]] = i;
      siftDown(siftUp(i));
    }
  }

  /**
   * Empties the heap and puts in {@code items[0..count)}, item {@code items[i]} at {@code keys[i]}:
   * O(count), where setting them one by one costs O(count log count).
   */
  public void fill(int[] items, double[] keys, int count) {
    for (int i = 0; i < size; i++) {
      at[heap[i]] = -1;
    }
    for (int i = 0; i < count; i++) {
      heap[i] = items[i];
      keyAt[i] = keys[i];
      at[items[i]] = i;
    }
    size = count;
    for (int i = (size - 2) / 4; i >= 0; i--) {
      siftDown(i);
    }
  }

  private boolean before(int i, int j) {
    return keyAt[i] < keyAt[j] || keyAt[i] == keyAt[j] && heap[i] < heap[j];
  }

  /** Moves the entry at i up while it goes before its parent; returns where it ends. */
  private int siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) >> 2;
      if (!before(i, parent)) {
        break;
      }
      swap(i, parent);
      i = parent;
    }
    return i;
  }

  private void siftDown(int i) {
    while (true) {
      int first = 4 * i + 1;
      if (first >= size) {
        return;
      }
      int least = first;
      for (int c = first + 1, end = Math.min(first + 4, size); c < end; c++) {
        if (before(c, least)) {
          least = c;
        }
      }
      if (!before(least, i)) {
        return;
      }
      swap(i, least);
      i = least;
    }
  }

  private void swap(int i, int j) {
    int a = heap[i];
    heap[i] = heap[j];
    heap[j] = a;
    double k = keyAt[i];
    keyAt[i] = keyAt[j];
    keyAt[j] = k;
    at[heap[i]] = i;
    at[heap[j]] = j;
  }
}
