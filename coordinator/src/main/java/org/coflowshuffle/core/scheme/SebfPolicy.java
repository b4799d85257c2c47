package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
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
    double[] freeIn = new double[m];
    double[] freeOut = new double[m];
    for (int j = 0; j < m; j++) {
      Host h = view.hosts().get(j);
      freeIn[j] = h.inBytesPerSec();
      freeOut[j] = h.outBytesPerSec();
    }
    double[] bottleneck = new double[active.size()];
    Integer[] order = new Integer[active.size()];
    double[][] loadIn = new double[active.size()][];
    double[][] loadOut = new double[active.size()][];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      loadIn[i] = new double[m];
      loadOut[i] = new double[m];
      loads(active.get(i), hostOf[i], loadIn[i], loadOut[i]);
      bottleneck[i] = bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
    }
    Arrays.sort(
        order, Comparator.comparingDouble((Integer i) -> bottleneck[i]).thenComparingInt(i -> i));
    double[][] rates = new double[active.size()][];
    for (int i : order) {
      ActiveCoflow a = active.get(i);
      rates[i] = new double[a.remaining().length];
      double gamma = bottleneck(loadIn[i], loadOut[i], freeIn, freeOut);
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
    List<CoflowAssignment> out = new ArrayList<>();
    for (int i = 0; i < active.size(); i++) {
      out.add(new CoflowAssignment(hostOf[i], rates[i]));
    }
    return new Decision(out, Double.POSITIVE_INFINITY);
  }

  /** Bytes the coflow still sends into and out of each host under its placement. */
  private static void loads(ActiveCoflow a, int[] hostOf, double[] in, double[] out) {
    double[] remaining = a.remaining();
    for (int k = 0; k < remaining.length; k++) {
      int h = hostOf[a.flowReducer()[k]];
      if (a.crossesNetwork(k, hostOf)) {
        in[h] += remaining[k];
        out[a.flowSource()[k]] += remaining[k];
      }
    }
  }

  /** Effective bottleneck: time to finish alone on the given free bandwidth. */
  private static double bottleneck(double[] in, double[] out, double[] freeIn, double[] freeOut) {
    double gamma = 0;
    for (int j = 0; j < in.length; j++) {
      gamma = Math.max(gamma, ratio(in[j], freeIn[j]));
      gamma = Math.max(gamma, ratio(out[j], freeOut[j]));
    }
    return gamma;
  }

  private static double ratio(double bytes, double bandwidth) {
    return bytes <= 0 ? 0 : bandwidth > 1e-9 ? bytes / bandwidth : Double.POSITIVE_INFINITY;
  }
}
