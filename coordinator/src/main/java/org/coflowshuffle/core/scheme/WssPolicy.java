package org.coflowshuffle.core.scheme;

import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * Orchestra (SIGCOMM'11, section 6.3 and its inter-transfer controller): coflows in arrival order
 * (FIFO), each given Weighted Shuffle Scheduling on the bandwidth the earlier ones left, that is
 * max-min fair rates weighted by each flow's remaining bytes. Under WSS the flows of a shuffle end
 * together while at least one of its links stays full, which the paper shows is optimal for one
 * shuffle on one path per host pair; FIFO across shuffles is Orchestra's default inter-transfer
 * policy, and filling in order makes it work-conserving. Placement is random at arrival: Orchestra
 * does not choose where reducers run.
 */
final class WssPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;
  private WeightedFilling filling;

  WssPolicy(ArrivalPlacement placement) {
    this.placement = placement;
  }

  @Override
  public String name() {
    return "wss";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    filling = WeightedFilling.forHosts(filling, view);
    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    double[][] rates = new double[active.size()][];
    for (int i = 0; i < active.size(); i++) { // the view lists coflows in arrival order
      rates[i] = filling.fill(active.get(i), hostOf[i], k -> true, Weight.BYTES, outLeft, inLeft);
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }
}
