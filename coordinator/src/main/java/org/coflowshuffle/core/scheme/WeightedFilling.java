package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.function.IntPredicate;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;

/**
 * Weighted max-min fair rates by progressive filling, on the bandwidth a caller has left: every
 * unfrozen flow rises in proportion to its weight until a host's outgoing or incoming link is full,
 * whose flows then freeze. Unit weights give per-flow fair sharing (TCP's rough outcome, the {@code
 * fair} baseline); weights equal to bytes give Orchestra's Weighted Shuffle Scheduling, where the
 * flows of a shuffle end together and one link stays full.
 *
 * <p>Flows between the same two hosts are interchangeable here, so they are added as one pair with
 * their weights summed: the cost of a filling grows with the host pairs in use, not with the flows.
 * One instance serves one cluster size and one thread; {@link #fill} leaves it empty for the next.
 */
final class WeightedFilling {

  private final int hosts;
  private final int[] pairOf; // src * hosts + dst -> pair, or -1 outside a filling
  private final double[] outWeight; // per host, weight of the unfrozen pairs; zero between rounds
  private final double[] inWeight;
  private int[] src = new int[16];
  private int[] dst = new int[16];
  private double[] weight = new double[16];
  private int pairs;

  /** What a flow's weight is. */
  enum Weight {
    /** One per flow: max-min fair sharing. */
    FLOWS,
    /** The flow's remaining bytes: Weighted Shuffle Scheduling. */
    BYTES
  }

  /** {@code reuse} if it serves the view's cluster size, else a new instance. */
  static WeightedFilling forHosts(WeightedFilling reuse, ClusterView view) {
    int m = view.hosts().size();
    return reuse != null && reuse.hosts == m ? reuse : new WeightedFilling(m);
  }

  WeightedFilling(int hosts) {
    this.hosts = hosts;
    this.pairOf = new int[hosts * hosts];
    this.outWeight = new double[hosts];
    this.inWeight = new double[hosts];
    Arrays.fill(pairOf, -1);
  }

  /** Adds {@code w} to the flows from {@code from} to {@code to}; returns the pair's number. */
  int add(int from, int to, double w) {
    int key = from * hosts + to;
    int p = pairOf[key];
    if (p < 0) {
      if (pairs == src.length) {
        src = Arrays.copyOf(src, 2 * pairs);
        dst = Arrays.copyOf(dst, 2 * pairs);
        weight = Arrays.copyOf(weight, 2 * pairs);
      }
      p = pairs++;
      pairOf[key] = p;
      src[p] = from;
      dst[p] = to;
      weight[p] = 0;
    }
    weight[p] += w;
    return p;
  }

  /**
   * Adds the flows of {@code a} that cross the network under {@code hostOf} and that {@code which}
   * accepts; returns, per flow, its pair's number or -1 where it was not added.
   */
  int[] add(ActiveCoflow a, int[] hostOf, IntPredicate which, Weight by) {
    return add(a, hostOf, which, by, 1);
  }

  /**
   * Like {@link #add(ActiveCoflow, int[], IntPredicate, Weight)}, every weight times {@code scale}.
   */
  int[] add(ActiveCoflow a, int[] hostOf, IntPredicate which, Weight by, double scale) {
    int[] pairOfFlow = new int[a.remaining().length];
    for (int k = 0; k < pairOfFlow.length; k++) {
      pairOfFlow[k] =
          a.crossesNetwork(k, hostOf) && which.test(k)
              ? add(a.flowSource()[k], hostOf[a.flowReducer()[k]], scale * weight(a, k, by))
              : -1;
    }
    return pairOfFlow;
  }

  /**
   * The rates of the flows that {@link #add(ActiveCoflow, int[], IntPredicate, Weight)} added,
   * given what {@link #fill} returned; 0 for the others.
   */
  static double[] rates(ActiveCoflow a, int[] pairOfFlow, double[] perWeight, Weight by) {
    return rates(a, pairOfFlow, perWeight, by, 1);
  }

  /** The rates of flows added with weights times {@code scale}. */
  static double[] rates(
      ActiveCoflow a, int[] pairOfFlow, double[] perWeight, Weight by, double scale) {
    double[] rates = new double[pairOfFlow.length];
    for (int k = 0; k < rates.length; k++) {
      rates[k] = pairOfFlow[k] < 0 ? 0 : perWeight[pairOfFlow[k]] * scale * weight(a, k, by);
    }
    return rates;
  }

  /**
   * Fills the chosen flows of one coflow alone on what is left (which they spend); returns their
   * rates, 0 for the others.
   */
  double[] fill(
      ActiveCoflow a,
      int[] hostOf,
      IntPredicate which,
      Weight by,
      double[] outLeft,
      double[] inLeft) {
    int[] pairOfFlow = add(a, hostOf, which, by);
    return rates(a, pairOfFlow, fill(outLeft, inLeft), by);
  }

  private static double weight(ActiveCoflow a, int k, Weight by) {
    return by == Weight.FLOWS ? 1 : a.remaining()[k];
  }

  /**
   * Fills the pairs added since the last call and takes their rates off {@code outLeft} and {@code
   * inLeft} (bytes per second left per host). Returns, per pair, the rate per unit of weight: a
   * flow's rate is its own weight times its pair's entry.
   */
  double[] fill(double[] outLeft, double[] inLeft) {
    int n = pairs;
    double[] perWeight = new double[n];
    boolean[] frozen = new boolean[n];
    double[] outAtStart = new double[n]; // what the pair's links had when the filling began
    double[] inAtStart = new double[n];
    int unfrozen = 0;
    for (int p = 0; p < n; p++) {
      outAtStart[p] = outLeft[src[p]];
      inAtStart[p] = inLeft[dst[p]];
      if (weight[p] > 0) {
        unfrozen++;
      } else {
        frozen[p] = true;
      }
    }
    while (unfrozen > 0) {
      for (int p = 0; p < n; p++) {
        if (!frozen[p]) {
          outWeight[src[p]] += weight[p];
          inWeight[dst[p]] += weight[p];
        }
      }
      double share = Double.POSITIVE_INFINITY;
      for (int p = 0; p < n; p++) {
        if (!frozen[p]) {
          share = Math.min(share, Math.max(0, outLeft[src[p]]) / outWeight[src[p]]);
          share = Math.min(share, Math.max(0, inLeft[dst[p]]) / inWeight[dst[p]]);
        }
      }
      if (share == Double.POSITIVE_INFINITY) {
        throw new IllegalStateException("flows between hosts of unlimited bandwidth");
      }
      for (int p = 0; p < n; p++) {
        if (!frozen[p]) {
          perWeight[p] += share;
          outLeft[src[p]] -= share * weight[p];
          inLeft[dst[p]] -= share * weight[p];
          outWeight[src[p]] = 0;
          inWeight[dst[p]] = 0;
        }
      }
      for (int p = 0; p < n; p++) {
        if (!frozen[p]
            && (full(outLeft[src[p]], outAtStart[p]) || full(inLeft[dst[p]], inAtStart[p]))) {
          frozen[p] = true;
          unfrozen--;
        }
      }
    }
    for (int p = 0; p < n; p++) {
      pairOf[src[p] * hosts + dst[p]] = -1;
    }
    pairs = 0;
    return perWeight;
  }

  private static boolean full(double left, double atStart) {
    return left <= 1e-12 * atStart + 1e-9;
  }
}
