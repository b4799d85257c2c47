package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;

/**
 * Varys-style scheduling on a placement fixed at arrival: coflows in Smallest-Effective-Bottleneck
 * -First order (their isolated completion time on the whole cluster), each given MADD rates (every
 * flow ends with the coflow's bottleneck on the bandwidth left), then idle bandwidth handed out to
 * flows in the same order (work conservation). With random placement this is the paper's
 * "scheduling-only (Varys)" baseline; with {@link NeatPlacement} it is NEAT.
 */
final class SebfPolicy implements SchedulingPolicy {

  private final String name;
  private final ArrivalPlacement placement;

  SebfPolicy(String name, ArrivalPlacement placement) {
    this.name = name;
    this.placement = placement;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    int m = view.hosts().size();
    double[] freeIn = Bandwidth.incoming(view);
    double[] freeOut = Bandwidth.outgoing(view);
    double[] bottleneck = new double[active.size()];
    Integer[] order = new Integer[active.size()];
    double[][] loadIn = new double[active.size()][];
    double[][] loadOut = new double[active.size()][];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      loadIn[i] = new double[m];
      loadOut[i] = new double[m];
      Bandwidth.loads(active.get(i), hostOf[i], loadIn[i], loadOut[i]);
      bottleneck[i] = Bandwidth.bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
    }
    Arrays.sort(
        order, Comparator.comparingDouble((Integer i) -> bottleneck[i]).thenComparingInt(i -> i));
    double[][] rates = new double[active.size()][];
    for (int i : order) {
      ActiveCoflow a = active.get(i);
      rates[i] = new double[a.remaining().length];
      double gamma = Bandwidth.bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
      if (!(gamma > 0) || gamma == Double.POSITIVE_INFINITY) {
        continue;
      }
      for (int k = 0; k < a.remaining().length; k++) {
        int h = hostOf[i][a.flowReducer()[k]];
        if (a.crossesNetwork(k, hostOf[i])) {
          rates[i][k] = a.remaining()[k] / gamma; // MADD
          freeIn[h] -= rates[i][k];
          freeOut[a.flowSource()[k]] -= rates[i][k];
        }
      }
    }
    int receiving = 0; // hosts with incoming bandwidth left: none, and nothing more can move
    for (double f : freeIn) {
      receiving += f > 0 ? 1 : 0;
    }
    for (int i : order) { // work conservation
      if (receiving == 0) {
        break;
      }
      ActiveCoflow a = active.get(i);
      for (int k = 0; k < a.remaining().length; k++) {
        int h = hostOf[i][a.flowReducer()[k]];
        int u = a.flowSource()[k];
        if (a.crossesNetwork(k, hostOf[i])) {
          double extra = Math.max(0, Math.min(freeIn[h], freeOut[u]));
          rates[i][k] += extra;
          freeIn[h] -= extra;
          freeOut[u] -= extra;
          if (extra > 0 && freeIn[h] <= 0) {
            receiving--;
          }
        }
      }
    }
    return Decision.of(hostOf, rates, Double.POSITIVE_INFINITY);
  }
}
