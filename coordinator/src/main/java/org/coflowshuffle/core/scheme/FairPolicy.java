package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * The paper's baseline: random placement and per-flow max-min fair sharing of every link, blind to
 * coflows, as TCP would roughly give. Rates come from progressive filling: all unfrozen flows rise
 * together until a link is full, whose flows then freeze. Flows between the same two hosts are
 * interchangeable here, so the filling runs over host pairs weighted by their flow counts: its cost
 * grows with the pairs in use, not with the flows.
 */
final class FairPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;
  private int[] pairOf = new int[0]; // src * m + dst -> pair, or -1; all -1 between decisions

  FairPolicy(ArrivalPlacement placement) {
    this.placement = placement;
  }

  @Override
  public String name() {
    return "fair";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    int m = view.hosts().size();
    // Host pairs in use, each with its number of flows. Links 0..m-1 are outgoing, m..2m-1
    // incoming.
    if (pairOf.length != m * m) {
      pairOf = new int[m * m];
      Arrays.fill(pairOf, -1);
    }
    List<int[]> pairs = new ArrayList<>(); // {src, dst, flows}
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      for (int k = 0; k < a.remaining().length; k++) {
        if (a.crossesNetwork(k, hostOf[i])) {
          int src = a.flowSource()[k];
          int dst = hostOf[i][a.flowReducer()[k]];
          if (pairOf[src * m + dst] < 0) {
            pairOf[src * m + dst] = pairs.size();
            pairs.add(new int[] {src, dst, 0});
          }
          pairs.get(pairOf[src * m + dst])[2]++;
        }
      }
    }
    double[] capacity = new double[2 * m];
    for (int j = 0; j < m; j++) {
      capacity[j] = view.hosts().get(j).outBytesPerSec();
      capacity[m + j] = view.hosts().get(j).inBytesPerSec();
    }
    double[] pairRate = new double[pairs.size()]; // per flow of the pair
    boolean[] frozen = new boolean[pairs.size()];
    int unfrozen = pairs.size();
    while (unfrozen > 0) {
      int[] count = new int[2 * m];
      for (int p = 0; p < pairs.size(); p++) {
        if (!frozen[p]) {
          count[pairs.get(p)[0]] += pairs.get(p)[2];
          count[m + pairs.get(p)[1]] += pairs.get(p)[2];
        }
      }
      double share = Double.POSITIVE_INFINITY;
      for (int l = 0; l < 2 * m; l++) {
        if (count[l] > 0) {
          share = Math.min(share, Math.max(0, capacity[l]) / count[l]);
        }
      }
      for (int p = 0; p < pairs.size(); p++) {
        if (!frozen[p]) {
          int[] pair = pairs.get(p);
          pairRate[p] += share;
          capacity[pair[0]] -= share * pair[2];
          capacity[m + pair[1]] -= share * pair[2];
        }
      }
      for (int p = 0; p < pairs.size(); p++) {
        int[] pair = pairs.get(p);
        if (!frozen[p]
            && (saturated(capacity[pair[0]], view.hosts().get(pair[0]).outBytesPerSec())
                || saturated(capacity[m + pair[1]], view.hosts().get(pair[1]).inBytesPerSec()))) {
          frozen[p] = true;
          unfrozen--;
        }
      }
    }
    List<CoflowAssignment> out = new ArrayList<>();
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      double[] rates = new double[a.remaining().length];
      for (int k = 0; k < rates.length; k++) {
        if (a.crossesNetwork(k, hostOf[i])) {
          int dst = hostOf[i][a.flowReducer()[k]];
          rates[k] = pairRate[pairOf[a.flowSource()[k] * m + dst]];
        }
      }
      out.add(new CoflowAssignment(hostOf[i], rates));
    }
    for (int[] pair : pairs) {
      pairOf[pair[0] * m + pair[1]] = -1;
    }
    return new Decision(out, Double.POSITIVE_INFINITY);
  }

  private static boolean saturated(double left, double capacity) {
    return left <= 1e-12 * capacity + 1e-9;
  }
}
