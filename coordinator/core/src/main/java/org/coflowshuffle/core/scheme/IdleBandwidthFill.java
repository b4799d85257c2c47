/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.plan.LinkProfile;
import org.coflowshuffle.core.plan.NetworkProfile;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.CoflowAssignment;

/**
 * The work-conserving variant of Algorithm 1 (paper Fig. 8): bandwidth the plan leaves idle now
 * goes to flows whose reducer has a host, larger flows first, each flow taking all that both its
 * sender and its receiver have left.
 *
 * <p>A flow that gets bandwidth this way empties its sender's or its receiver's free rate, so after
 * the first flow of a host pair (in that order) no other flow of the pair gets any. Only that flow
 * per pair is sorted and served, which hands out exactly what serving every flow in order would, in
 * the same order and so to the same bits, with a pass over the flows instead of a sort of them: the
 * sort is of one flow per host pair, however many flows a pair carries. Flows whose sender or
 * receiver has nothing free are skipped at once, since free rates only shrink during the fill.
 */
final class IdleBandwidthFill {

  // Per host pair (sender * hosts + receiver), open addressing: its key + 1 (0: empty slot) and the
  // index of its leading flow below. A table sized to the pairs seen, not to hosts squared.
  private long[] slotKey = new long[1024];
  private int[] slotLeader = new int[1024];

  private long[] pair = new long[64];
  private int[] slotOfLeader = new int[64];
  private int[] coflow = new int[64];
  private int[] flow = new int[64];
  private double[] bytes = new double[64];

  /** Adds to {@code out}'s rates what the links of {@code net} have free now, and takes it. */
  void fill(List<ActiveCoflow> active, CoflowAssignment[] out, NetworkProfile net) {
    int m = net.hostCount();
    int leaders = 0;
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      int[] hostOf = out[i].hostOf();
      double[] remaining = a.remaining();
      int[] src = a.flowSource();
      int[] reducer = a.flowReducer();
      for (int k = 0; k < remaining.length; k++) {
        if (!a.crossesNetwork(k, hostOf)) {
          continue;
        }
        int u = src[k];
        int h = hostOf[reducer[k]];
        if (net.out(u).rateNow() <= 0 || net.in(h).rateNow() <= 0) {
          continue;
        }
        long p = (long) u * m + h;
        int slot = slotOf(p);
        int l;
        if (slotKey[slot] == 0) {
          if (leaders == pair.length) {
            grow();
          }
          l = leaders++;
          slotKey[slot] = p + 1;
          slotLeader[slot] = l;
          slotOfLeader[l] = slot;
          pair[l] = p;
          bytes[l] = -1;
          if (2 * leaders > slotKey.length) {
            rehash(leaders);
          }
        } else {
          l = slotLeader[slot];
        }
        if (remaining[k] > bytes[l]) { // ties: the earlier flow leads, as in a stable sort
          coflow[l] = i;
          flow[l] = k;
          bytes[l] = remaining[k];
        }
      }
    }
    Integer[] order = new Integer[leaders];
    Arrays.setAll(order, l -> l);
    Arrays.sort( // larger first; ties in (coflow, flow) order
        order,
        (x, y) ->
            bytes[x] != bytes[y]
                ? Double.compare(bytes[y], bytes[x])
                : coflow[x] != coflow[y] ? coflow[x] - coflow[y] : flow[x] - flow[y]);
    for (int l : order) {
      LinkProfile up = net.out((int) (pair[l] / m));
      LinkProfile down = net.in((int) (pair[l] % m));
      double extra = Math.min(up.rateNow(), down.rateNow());
      if (extra > 0) {
        out[coflow[l]].rates()[flow[l]] += extra;
        up.takeNow(extra);
        down.takeNow(extra);
      }
    }
    for (int l = 0; l < leaders; l++) {
      slotKey[slotOfLeader[l]] = 0;
    }
  }

  /** The slot of pair {@code p}: where it is, or the empty slot where it goes. */
  private int slotOf(long p) {
    int mask = slotKey.length - 1;
    long hash = p * 0x9E3779B97F4A7C15L;
    int slot = (int) (hash ^ (hash >>> 32)) & mask;
    while (slotKey[slot] != 0 && slotKey[slot] != p + 1) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Doubles the table and puts the first {@code leaders} pairs back. */
  private void rehash(int leaders) {
    slotKey = new long[2 * slotKey.length];
    slotLeader = new int[slotKey.length];
    for (int l = 0; l < leaders; l++) {
      int slot = slotOf(pair[l]);
      slotKey[slot] = pair[l] + 1;
      slotLeader[slot] = l;
      slotOfLeader[l] = slot;
    }
  }

  private void grow() {
    int n = 2 * pair.length;
    pair = Arrays.copyOf(pair, n);
    coflow = Arrays.copyOf(coflow, n);
    flow = Arrays.copyOf(flow, n);
    slotOfLeader = Arrays.copyOf(slotOfLeader, n);
    bytes = Arrays.copyOf(bytes, n);
  }
}
