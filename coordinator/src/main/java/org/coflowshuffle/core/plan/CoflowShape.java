package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * The fixed structure of a coflow, computed once: its flows grouped by reducer and, within a
 * reducer, by source host ("slots"), so that summing remaining bytes per reducer and source is one
 * pass over the flows with no sorting, however often the coflow is planned.
 */
public final class CoflowShape {

  final int[] slotOfFlow;
  final int[] firstSlot; // per reducer n: its slots are [firstSlot[n], firstSlot[n + 1])
  final int[] sourceOfSlot; // ascending within each reducer
  final int[] senders; // distinct source hosts, ascending
  final int[] sourceOfFlow; // per flow, in flow order: loops over flows stay sequential in memory
  final int[] reducerOfFlow;

  /** The shape of {@code active}'s coflow, from its per-flow index arrays (copied). */
  public CoflowShape(ActiveCoflow active) {
    int reducers = active.coflow().reducers().size();
    sourceOfFlow = active.flowSource().clone();
    reducerOfFlow = active.flowReducer().clone();
    int count = sourceOfFlow.length;
    int sources = 0;
    for (int u : sourceOfFlow) {
      sources = Math.max(sources, u + 1);
    }
    // Flows ordered by (reducer, source, index): by reducer with a counting sort, linear in the
    // flows; then each reducer's flows by source, where they are not already.
    int[] first = new int[reducers + 1];
    for (int n : reducerOfFlow) {
      first[n + 1]++;
    }
    for (int n = 0; n < reducers; n++) {
      first[n + 1] += first[n];
    }
    int[] order = new int[count];
    int[] next = Arrays.copyOf(first, reducers);
    for (int k = 0; k < count; k++) {
      order[next[reducerOfFlow[k]]++] = k;
    }
    slotOfFlow = new int[count];
    int[] slotSource = new int[count];
    firstSlot = new int[reducers + 1];
    boolean[] sends = new boolean[sources];
    int slots = 0;
    for (int n = 0; n < reducers; n++) {
      sortBySource(order, first[n], first[n + 1], sourceOfFlow);
      int previous = -1;
      for (int i = first[n]; i < first[n + 1]; i++) {
        int k = order[i];
        int u = sourceOfFlow[k];
        if (u != previous) {
          slotSource[slots++] = u;
          sends[u] = true;
          previous = u;
        }
        slotOfFlow[k] = slots - 1;
      }
      firstSlot[n + 1] = slots;
    }
    sourceOfSlot = Arrays.copyOf(slotSource, slots);
    int distinct = 0;
    for (boolean b : sends) {
      distinct += b ? 1 : 0;
    }
    senders = new int[distinct];
    for (int u = 0, i = 0; u < sources; u++) {
      if (sends[u]) {
        senders[i++] = u;
      }
    }
  }

  /** Sorts {@code order[from..to)}, flow indices ascending, by their source, stably. */
  private static void sortBySource(int[] order, int from, int to, int[] sourceOfFlow) {
    for (int i = from + 1; i < to; i++) {
      if (sourceOfFlow[order[i]] < sourceOfFlow[order[i - 1]]) {
        long[] keys = new long[to - from];
        for (int j = from; j < to; j++) {
          keys[j - from] = ((long) sourceOfFlow[order[j]] << 32) | order[j];
        }
        Arrays.sort(keys);
        for (int j = from; j < to; j++) {
          order[j] = (int) keys[j - from];
        }
        return;
      }
    }
  }

  /** True when some sender of the coflow may also run reducers, so locality matters. */
  public boolean sendersMayHostReducers(List<Host> hosts) {
    for (int u : senders) {
      if (hosts.get(u).canHostReducers()) {
        return true;
      }
    }
    return false;
  }
}
