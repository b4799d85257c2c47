/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import org.coflowshuffle.core.plan.CoflowDemand;
import org.coflowshuffle.core.plan.CoflowShape;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;

/**
 * NEAT's scheduling-aware placement as the RPC paper uses it ("given SRTF, the reducers are placed
 * onto the hosts that minimize the impact on the completion time of other coflows"): reducers one
 * by one, largest first, each on the host with the least total delay under SRTF — its own finish
 * behind the bytes that smaller coflows (served first) queue there, plus the time it adds to every
 * larger coflow that receives there. Counting every queued byte instead, as if served last, would
 * keep small coflows off the fast hosts that large ones hold, which SRTF never makes them wait for.
 */
final class NeatPlacement extends ArrivalPlacement {

  @Override
  void place(ClusterView view, ActiveCoflow a, int[] hostOf, int[] freeSlots) {
    if (Arrays.stream(hostOf).allMatch(h -> h >= 0)) {
      return; // placed when it arrived; nothing waits for a slot
    }
    int m = view.hosts().size();
    // Under SRTF only smaller coflows delay this one; it delays every larger one on the same host.
    // sizes summed flow by flow, not from the totals: equal sizes are common (jobs drawn from one
    // trace), and which of two equal coflows counts as smaller must not move with rounding
    double size = a.remainingBytes();
    double[] smaller = new double[m];
    int[] larger = new int[m];
    double[] sent = new double[m]; // what the loads also give; not needed here
    for (ActiveCoflow other : view.coflows()) {
      if (other.index() == a.index()) {
        continue;
      }
      double[] on = new double[m];
      int[] where = placementOf(other.index()); // includes coflows placed earlier in this call
      Bandwidth.loads(other, where != null ? where : other.hostOf(), on, sent);
      double otherSize = other.remainingBytes();
      boolean first = otherSize < size;
      for (int j = 0; j < m; j++) {
        if (on[j] > 0) {
          if (first) {
            smaller[j] += on[j];
          } else {
            larger[j]++;
          }
        }
      }
    }
    double[] queued = smaller; // grows with this coflow's own reducers as they are placed
    CoflowShape shape = new CoflowShape(a);
    CoflowDemand d = new CoflowDemand(a, shape, shape.sendersMayHostReducers(view.hosts()));
    Integer[] order = new Integer[hostOf.length];
    for (int r = 0; r < order.length; r++) {
      order[r] = r;
    }
    Arrays.sort(order, (x, y) -> Double.compare(d.work(y), d.work(x)));
    for (int r : order) {
      if (hostOf[r] >= 0) {
        continue;
      }
      int best = -1;
      double bestFinish = Double.POSITIVE_INFINITY;
      for (int j = 0; j < m; j++) {
        double bw = view.hosts().get(j).inBytesPerSec();
        if (freeSlots[j] <= 0) {
          continue;
        }
        double own = d.networkBytes(r, j);
        double bytes = queued[j] + own + larger[j] * own;
        double finish = bytes <= 0 ? 0 : bw > 0 ? bytes / bw : Double.POSITIVE_INFINITY;
        if (best < 0 || finish < bestFinish) {
          best = j;
          bestFinish = finish;
        }
      }
      if (best < 0) {
        return;
      }
      hostOf[r] = best;
      freeSlots[best]--;
      queued[best] += d.networkBytes(r, best);
    }
  }
}
