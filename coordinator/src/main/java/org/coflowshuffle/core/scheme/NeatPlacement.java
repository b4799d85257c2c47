package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.plan.CoflowDemand;
import org.coflowshuffle.core.plan.CoflowShape;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;

/**
 * NEAT's scheduling-aware placement as the RPC paper uses it: reducers one by one, largest first,
 * each on the host where it would finish earliest behind the bytes already queued for that host by
 * the coflows placed before (the delay it adds to them is the same bytes over the same link).
 */
final class NeatPlacement extends ArrivalPlacement {

  @Override
  void place(ClusterView view, ActiveCoflow a, int[] hostOf, int[] freeSlots) {
    if (Arrays.stream(hostOf).allMatch(h -> h >= 0)) {
      return; // placed when it arrived; nothing waits for a slot
    }
    int m = view.hosts().size();
    double[] queued = new double[m];
    for (ActiveCoflow other : view.coflows()) {
      List<Flow> flows = other.coflow().flows();
      for (int k = 0; k < flows.size(); k++) {
        int h = other.hostOf()[other.flowReducer()[k]];
        if (h >= 0 && h != other.flowSource()[k]) {
          queued[h] += other.remaining()[k];
        }
      }
    }
    CoflowShape shape = new CoflowShape(a.coflow());
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
        double bytes = queued[j] + d.networkBytes(r, j);
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
