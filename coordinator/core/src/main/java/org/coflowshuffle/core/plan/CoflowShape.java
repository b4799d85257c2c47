/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * The fixed structure of a coflow, computed once: its senders and, when first asked, its flows
 * grouped by reducer and within a reducer by source host ("slots", for bytes per reducer and source
 * in one pass over the flows with no sorting, however often the coflow is planned) and its flows
 * grouped by reducer or by sender (for the rates of one reducer or one sender). Only the senders
 * are worked out at once (and, in the same pass, whether the flows are a {@link Grid} listed
 * reducer by reducer): a coflow none of whose senders may run reducers never needs its slots, and
 * numbering them costs passes over all of its flows.
 */
public final class CoflowShape {

  final int[] senders; // distinct source hosts, ascending
  final int[] sourceOfFlow; // per flow, in flow order: loops over flows stay sequential in memory
  final int[] reducerOfFlow;
  private final int reducers;
  private Slots slots;
  private FlowGroups byReducer;
  private FlowGroups bySender;
  private Grid grid; // see grid()
  private boolean gridKnown;

  /**
   * Flows grouped by reducer and source host.
   *
   * @param slotOfFlow per flow, its slot
   * @param firstSlot per reducer n: its slots are [firstSlot[n], firstSlot[n + 1])
   * @param sourceOfSlot per slot, its source host; ascending within each reducer
   */
  record Slots(int[] slotOfFlow, int[] firstSlot, int[] sourceOfSlot) {}

  /**
   * The shape of {@code active}'s coflow, from its per-flow index arrays (kept, not copied: they
   * are fixed for the coflow, see {@link ActiveCoflow}).
   */
  public CoflowShape(ActiveCoflow active) {
    reducers = active.coflow().reducers().size();
    sourceOfFlow = active.flowSource();
    reducerOfFlow = active.flowReducer();
    // A full shuffle listed reducer by reducer is told in one pass that stops at the first flow out
    // of that order (the second, for one listed sender by sender), and its senders are those of
    // its first reducer; its grouping by reducer then needs no pass of its own.
    int rows =
        reducers > 0 && sourceOfFlow.length % reducers == 0 ? sourceOfFlow.length / reducers : 0;
    Grid columns = rows > 0 ? reducerByReducer(rows) : null;
    if (columns != null) {
      grid = columns;
      gridKnown = true;
      byReducer = FlowGroups.consecutive(reducers, rows);
    }
    senders = distinct(columns != null ? columns.senderOfRow() : sourceOfFlow);
  }

  /**
   * The distinct hosts of {@code hosts}, ascending. One pass, the array grown as hosts come, rather
   * than a first pass for the highest host, each step of which would wait for the maximum before
   * it. Flows usually come sender by sender: a flow from the sender of the flow before it has
   * nothing to mark.
   */
  private static int[] distinct(int[] hosts) {
    boolean[] sends = new boolean[64];
    int last = -1;
    for (int u : hosts) {
      if (u == last) {
        continue;
      }
      last = u;
      if (u >= sends.length) {
        sends = Arrays.copyOf(sends, Math.max(u + 1, 2 * sends.length));
      }
      sends[u] = true;
    }
    int distinct = 0;
    for (boolean b : sends) {
      distinct += b ? 1 : 0;
    }
    int[] senders = new int[distinct];
    for (int u = 0, i = 0; u < sends.length; u++) {
      if (sends[u]) {
        senders[i++] = u;
      }
    }
    return senders;
  }

  /** The slots, numbered when first asked. */
  Slots slots() {
    if (slots == null) {
      int[] slotOfFlow = new int[sourceOfFlow.length];
      int[] firstSlot = new int[reducers + 1];
      int[] sourceOfSlot = slotsInFlowOrder(slotOfFlow, firstSlot);
      if (sourceOfSlot == null) {
        sourceOfSlot = slotsByReducer(slotOfFlow, firstSlot);
      }
      slots = new Slots(slotOfFlow, firstSlot, sourceOfSlot);
    }
    return slots;
  }

  /** The flows grouped by reducer, grouped when first asked. */
  FlowGroups byReducer() {
    if (byReducer == null) {
      byReducer = FlowGroups.of(reducerOfFlow, reducers);
    }
    return byReducer;
  }

  /**
   * A full shuffle: every row (one flow to each reducer, in reducer order) comes from one sender,
   * and the flow of row i to reducer n is at {@code i * rowStep + n * columnStep}. Listed sender by
   * sender, a row is contiguous ({@code columnStep} 1); listed reducer by reducer, a reducer's
   * flows are ({@code rowStep} 1). A loop over one reducer's flows takes each flow's sender from
   * the small {@code senderOfRow} instead of from the per-flow array, and loops over all flows go
   * in memory order with neither per-flow index array.
   */
  record Grid(int[] senderOfRow, int rowStep, int columnStep) {

    /** The flow of row {@code row} to reducer {@code n}. */
    int flow(int row, int n) {
      return row * rowStep + n * columnStep;
    }

    /** Whether each reducer's flows are contiguous (listed reducer by reducer). */
    boolean byReducer() {
      return rowStep == 1;
    }

    int rows() {
      return senderOfRow.length;
    }
  }

  /**
   * The coflow as a {@link Grid} when it is a full shuffle in either regular order, else null (the
   * order reducer by reducer is told when the shape is made).
   */
  Grid grid() {
    if (!gridKnown) {
      gridKnown = true;
      FlowGroups groups = byReducer();
      if (groups.strided()) {
        grid = senderBySender(groups.step());
      }
    }
    return grid;
  }

  /** The grid of flows listed sender by sender, rows of {@code width}, or null. */
  private Grid senderBySender(int width) {
    int[] senders = new int[sourceOfFlow.length / width];
    for (int row = 0, k = 0; row < senders.length; row++) {
      senders[row] = sourceOfFlow[k];
      for (int end = k + width; k < end; k++) {
        if (sourceOfFlow[k] != senders[row]) {
          return null;
        }
      }
    }
    return new Grid(senders, width, 1);
  }

  /**
   * The grid of flows listed reducer by reducer, {@code rows} flows each, every reducer's from the
   * same senders in the same order, or null.
   */
  private Grid reducerByReducer(int rows) {
    for (int n = 0, k = 0; n < reducers; n++) {
      for (int row = 0; row < rows; row++, k++) {
        if (reducerOfFlow[k] != n || sourceOfFlow[k] != sourceOfFlow[row]) {
          return null;
        }
      }
    }
    return new Grid(Arrays.copyOf(sourceOfFlow, rows), 1, rows);
  }

  /** The flows grouped by source host (of {@code hosts}), grouped when first asked. */
  FlowGroups bySender(int hosts) {
    if (bySender == null || bySender.groups() != hosts) {
      bySender = FlowGroups.of(sourceOfFlow, hosts);
    }
    return bySender;
  }

  /**
   * Numbers the slots in two sequential passes over the flows, where each reducer's flows come in
   * ascending order of source host (as when the flows are listed sender by sender, the usual
   * order); else returns null, leaving counts that {@link #slotsByReducer} starts over. At 250,000
   * flows this takes about half as long as the grouping by reducer, whose reads jump across the
   * arrays.
   *
   * @return the source host of each slot
   */
  private int[] slotsInFlowOrder(int[] slotOfFlow, int[] firstSlot) {
    int[] last = new int[reducers]; // per reducer, the source of its latest flow so far
    Arrays.fill(last, -1);
    for (int k = 0; k < sourceOfFlow.length; k++) {
      int n = reducerOfFlow[k];
      int u = sourceOfFlow[k];
      if (u < last[n]) {
        return null;
      }
      if (u != last[n]) {
        firstSlot[n + 1]++;
        last[n] = u;
      }
    }
    for (int n = 0; n < reducers; n++) {
      firstSlot[n + 1] += firstSlot[n];
    }
    int[] slotSource = new int[firstSlot[reducers]];
    int[] slot = new int[reducers]; // per reducer, its latest slot so far
    for (int n = 0; n < reducers; n++) {
      last[n] = -1;
      slot[n] = firstSlot[n] - 1;
    }
    for (int k = 0; k < sourceOfFlow.length; k++) {
      int n = reducerOfFlow[k];
      int u = sourceOfFlow[k];
      if (u != last[n]) {
        slotSource[++slot[n]] = u;
        last[n] = u;
      }
      slotOfFlow[k] = slot[n];
    }
    return slotSource;
  }

  /**
   * Numbers the slots for flows in any order: ordered by (reducer, source, index), by reducer with
   * a counting sort, linear in the flows, then each reducer's flows by source where they are not
   * already.
   *
   * @return the source host of each slot
   */
  private int[] slotsByReducer(int[] slotOfFlow, int[] firstSlot) {
    int[] first = new int[reducers + 1];
    int[] order = FlowGroups.countingSort(reducerOfFlow, first);
    int[] slotSource = new int[sourceOfFlow.length];
    Arrays.fill(firstSlot, 0);
    int numbered = 0;
    for (int n = 0; n < reducers; n++) {
      sortBySource(order, first[n], first[n + 1], sourceOfFlow);
      int previous = -1;
      for (int i = first[n]; i < first[n + 1]; i++) {
        int k = order[i];
        int u = sourceOfFlow[k];
        if (u != previous) {
          slotSource[numbered++] = u;
          previous = u;
        }
        slotOfFlow[k] = numbered - 1;
      }
      firstSlot[n + 1] = numbered;
    }
    return Arrays.copyOf(slotSource, numbered);
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
