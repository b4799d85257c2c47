package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * The paper's baseline: random placement and per-flow max-min fair sharing of every link, blind to
 * coflows, as TCP would roughly give. Rates come from progressive filling: all unfrozen flows rise
 * together until a link is full, whose flows then freeze.
 */
final class FairPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;

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
    List<int[]> flows = new ArrayList<>(); // {coflow, flow, src, dst}
    double[][] rates = new double[active.size()][];
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      rates[i] = new double[a.remaining().length];
      for (int k = 0; k < rates[i].length; k++) {
        if (a.crossesNetwork(k, hostOf[i])) {
          flows.add(new int[] {i, k, a.flowSource()[k], hostOf[i][a.flowReducer()[k]]});
        }
      }
    }
    // Links 0..m-1 are outgoing, m..2m-1 incoming.
    double[] capacity = new double[2 * m];
    for (int j = 0; j < m; j++) {
      capacity[j] = view.hosts().get(j).outBytesPerSec();
      capacity[m + j] = view.hosts().get(j).inBytesPerSec();
    }
    boolean[] frozen = new boolean[flows.size()];
    int unfrozen = flows.size();
    while (unfrozen > 0) {
      int[] count = new int[2 * m];
      for (int f = 0; f < flows.size(); f++) {
        if (!frozen[f]) {
          count[flows.get(f)[2]]++;
          count[m + flows.get(f)[3]]++;
        }
      }
      double share = Double.POSITIVE_INFINITY;
      for (int l = 0; l < 2 * m; l++) {
        if (count[l] > 0) {
          share = Math.min(share, Math.max(0, capacity[l]) / count[l]);
        }
      }
      for (int f = 0; f < flows.size(); f++) {
        if (!frozen[f]) {
          int[] fl = flows.get(f);
          rates[fl[0]][fl[1]] += share;
          capacity[fl[2]] -= share;
          capacity[m + fl[3]] -= share;
        }
      }
      for (int f = 0; f < flows.size(); f++) {
        int[] fl = flows.get(f);
        if (!frozen[f]
            && (saturated(capacity[fl[2]], view.hosts().get(fl[2]).outBytesPerSec())
                || saturated(capacity[m + fl[3]], view.hosts().get(fl[3]).inBytesPerSec()))) {
          frozen[f] = true;
          unfrozen--;
        }
      }
    }
    List<CoflowAssignment> out = new ArrayList<>();
    for (int i = 0; i < active.size(); i++) {
      out.add(new CoflowAssignment(hostOf[i], rates[i]));
    }
    return new Decision(out, Double.POSITIVE_INFINITY);
  }

  private static boolean saturated(double left, double capacity) {
    return left <= 1e-12 * capacity + 1e-9;
  }
}
