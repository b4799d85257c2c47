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

  /** The flows of {@code keyOfFlow}'s length grouped by their key, of {@code keys} keys. */
  static FlowGroups of(int[] keyOfFlow, int keys) {
    int[] first = new int[keys + 1];
    boolean ordered = true;
    boolean strided = keyOfFlow.length % keys == 0;
    for (int k = 0, column = 0; k < keyOfFlow.length; k++) { // column: k % keys, no division
      first[keyOfFlow[k] + 1]++;
      ordered &= k == 0 || keyOfFlow[k] >= keyOfFlow[k - 1];
      strided &= keyOfFlow[k] == column;
      column = column + 1 == keys ? 0 : column + 1;
    }
    for (int g = 0; g < keys; g++) {
      first[g + 1] += first[g];
    }
    if (ordered) {
      return new FlowGroups(first, null, 0);
    }
    if (strided) {
      return new FlowGroups(first, null, keys);
    }
    int[] flows = new int[keyOfFlow.length];
    int[] next = Arrays.copyOf(first, keys);
    for (int k = 0; k < keyOfFlow.length; k++) {
      flows[next[keyOfFlow[k]]++] = k;
    }
    return new FlowGroups(first, flows, 0);
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

  int step() {
    return stride > 0 ? stride : 1;
  }

  /** The flow at loop index i. */
  int flow(int i) {
    return flows == null ? i : flows[i];
  }
}
