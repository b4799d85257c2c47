package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;

/**
 * The fixed structure of a coflow, computed once: its flows grouped by reducer and, within a
 * reducer, by source host ("slots"), so that summing remaining bytes per reducer and source is one
 * pass over the flows with no sorting, however often the coflow is planned.
 */
public final class CoflowShape {

  private static final int BITS = 21;
  private static final long MASK = (1L << BITS) - 1;

  final int[] slotOfFlow;
  final int[] firstSlot; // per reducer n: its slots are [firstSlot[n], firstSlot[n + 1])
  final int[] sourceOfSlot; // ascending within each reducer
  final int[] senders; // distinct source hosts, ascending
  final int[] sourceOfFlow; // per flow, in flow order: loops over flows stay sequential in memory
  final int[] reducerOfFlow;

  public CoflowShape(Coflow coflow) {
    List<Flow> flows = coflow.flows();
    int reducers = coflow.reducers().size();
    if (flows.size() > MASK || reducers > MASK) {
      throw new IllegalArgumentException("coflow " + coflow.id() + " is too large to index");
    }
    long[] keys = new long[flows.size()];
    for (int k = 0; k < keys.length; k++) {
      Flow f = flows.get(k);
      keys[k] = ((long) f.reducer() << (2 * BITS)) | ((long) f.src() << BITS) | k;
    }
    sourceOfFlow = new int[keys.length];
    reducerOfFlow = new int[keys.length];
    for (int k = 0; k < keys.length; k++) {
      sourceOfFlow[k] = flows.get(k).src();
      reducerOfFlow[k] = flows.get(k).reducer();
    }
    Arrays.sort(keys);
    slotOfFlow = new int[keys.length];
    int[] sources = new int[keys.length];
    int[] reducerOfSlot = new int[keys.length];
    int slots = 0;
    long previous = -1;
    for (long key : keys) {
      long group = key >>> BITS; // reducer and source
      if (group != previous) {
        sources[slots] = (int) (group & MASK);
        reducerOfSlot[slots++] = (int) (group >>> BITS);
        previous = group;
      }
      slotOfFlow[(int) (key & MASK)] = slots - 1;
    }
    sourceOfSlot = Arrays.copyOf(sources, slots);
    firstSlot = new int[reducers + 1];
    for (int n = 0, s = 0; n <= reducers; n++) {
      while (s < slots && reducerOfSlot[s] < n) {
        s++;
      }
      firstSlot[n] = s;
    }
    senders = Arrays.stream(sourceOfSlot).distinct().sorted().toArray();
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
