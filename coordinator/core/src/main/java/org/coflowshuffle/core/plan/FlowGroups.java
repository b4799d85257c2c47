/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;

/**
 * A coflow's flow indices grouped by a key (reducer or source host), ascending within a group, for
 * the loops that visit one reducer's or one sender's flows. Flows that already come in key order
 * (as they come by sender) or in the regular order of a full shuffle (every sender to every reducer
 * in turn, so that a reducer's flows are evenly spaced) need no array; others are grouped by a
 * counting sort. A loop over group g: {@code for (int i = start(g); i < end(g); i += step())},
 * visiting flow {@code flow(i)}.
 */
final class FlowGroups {

  private final int[] first; // per key g, its flows' count is first[g + 1] - first[g]
  private final int[] flows; // grouped, when neither ordered nor strided; else null
  private final int stride; // > 0: group g is the flows g, g + stride, g + 2 stride, ...

  private FlowGroups(int[] first, int[] flows, int stride) {
    this.first = first;
    this.flows = flows;
    this.stride = stride;
  }

  /**
   * The flows of {@code keyOfFlow}'s length grouped by their key, of {@code keys} keys. The two
   * regular forms are told by passes that stop at the first flow out of form, and their group
   * bounds need no count per flow: counting the flows into one group after another makes each count
   * wait for the one before, on every flow of a coflow as it arrives.
   */
  static FlowGroups of(int[] keyOfFlow, int keys) {
    int total = keyOfFlow.length;
    int[] first = new int[keys + 1];
    if (ordered(keyOfFlow)) {
      for (int k = 0, g = 0; k <= total; k++) { // first[g]: the first flow of key g or more
        int key = k < total ? keyOfFlow[k] : keys;
        while (g <= key) {
          first[g++] = k;
        }
      }
      return new FlowGroups(first, null, 0);
    }
    if (strided(keyOfFlow, keys)) {
      for (int g = 0; g <= keys; g++) {
        first[g] = g * (total / keys);
      }
      return new FlowGroups(first, null, keys);
    }
    return new FlowGroups(first, countingSort(keyOfFlow, first), 0);
  }

  /**
   * Flows in key order, {@code size} of each of {@code keys} keys, as {@link #of} would group them
   * without reading the keys: for a caller that has checked them already.
   */
  static FlowGroups consecutive(int keys, int size) {
    int[] first = new int[keys + 1];
    for (int g = 0; g <= keys; g++) {
      first[g] = g * size;
    }
    return new FlowGroups(first, null, 0);
  }

  /**
   * The flows grouped by key, ascending within a key, by a counting sort; {@code first} (one more
   * than the keys, all 0) gets each key's start.
   */
  static int[] countingSort(int[] keyOfFlow, int[] first) {
    int keys = first.length - 1;
    for (int key : keyOfFlow) {
      first[key + 1]++;
    }
    for (int g = 0; g < keys; g++) {
      first[g + 1] += first[g];
    }
    int[] flows = new int[keyOfFlow.length];
    int[] next = Arrays.copyOf(first, keys);
    for (int k = 0; k < keyOfFlow.length; k++) {
      flows[next[keyOfFlow[k]]++] = k;
    }
    return flows;
  }

  private static boolean ordered(int[] keyOfFlow) {
    for (int k = 1; k < keyOfFlow.length; k++) {
      if (keyOfFlow[k] < keyOfFlow[k - 1]) {
        return false;
      }
    }
    return true;
  }

  /** Whether flow k has key k mod {@code keys}, every key as often. */
  private static boolean strided(int[] keyOfFlow, int keys) {
    if (keyOfFlow.length % keys != 0) {
      return false;
    }
    for (int k = 0, column = 0; k < keyOfFlow.length; k++) { // column: k % keys, no division
      if (keyOfFlow[k] != column) {
        return false;
      }
      column = column + 1 == keys ? 0 : column + 1;
    }
    return true;
  }

  int groups() {
    return first.length - 1;
  }

  /** How many flows group g has. */
  int size(int g) {
    return first[g + 1] - first[g];
  }

  int start(int g) {
    return stride > 0 ? g : first[g];
  }

  int end(int g) {
    return stride > 0 ? first[first.length - 1] : first[g + 1];
  }

  /** Whether a group's flows lie {@link #step()} apart: the regular order of a full shuffle. */
  boolean strided() {
    return stride > 0;
  }

  int step() {
    return stride > 0 ? stride : 1;
  }

  /** The flow at loop index i. */
  int flow(int i) {
    return flows == null ? i : flows[i];
  }
}
