/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * Philae (USENIX ATC'19): non-clairvoyant, for coflows whose sizes are unknown when they start
 * (pushed or pipelined shuffles, streaming). Instead of learning a coflow's size by moving it down
 * Aalo's queues, it samples: when a wide coflow arrives, a few pilot flows go first, on the senders
 * and receivers with the fewest pilots of other coflows, with the whole bandwidth of their ports;
 * once they are done, the coflow's size is estimated as their mean times its flow count.
 *
 * <ul>
 *   <li>Pilots: {@code max(1, 5% of senders)}, on distinct senders ({@link PilotSampling}).
 *   <li>Thin coflows (at most {@code thinLimit} flows) skip sampling: all their flows start at once
 *       and, their size unknown, they sit in the queues by the bytes they have sent, as in Aalo.
 *   <li>Sampled coflows sit in the {@link DclasQueues} by length-weighted total-port contention:
 *       the estimated mean flow length times, summed over the ports where the coflow still has
 *       flows, the number of other coflows with flows there (the paper's policy D, its default).
 *   <li>Queues in strict priority, first-in first-out inside one, flows of a coflow sharing fairly;
 *       then, for work conservation, the held-back flows of coflows still sampling, in arrival
 *       order.
 * </ul>
 *
 * Strict priority across queues matches {@link AaloPolicy}, so that the two differ only in how they
 * learn, as the paper compares them. The policy asks to be woken when a pilot will end (its
 * coflow's estimate is then due) and when a thin coflow will cross its queue's bound. Placement is
 * random at arrival.
 */
final class PhilaePolicy implements SchedulingPolicy {

  /** The paper's default: coflows of up to 7 flows skip sampling. */
  static final int THIN_LIMIT = 7;

  /** What is known of one coflow: its pilots (none if thin) and, once they end, its estimate. */
  private static final class Probe {
    final int[] pilots;
    double meanFlowBytes = Double.NaN;

    Probe(int[] pilots) {
      this.pilots = pilots;
    }

    boolean thin() {
      return pilots.length == 0;
    }

    boolean sampling() {
      return !thin() && Double.isNaN(meanFlowBytes);
    }
  }

  private final ArrivalPlacement placement;
  private final DclasQueues queues;
  private final Map<Integer, Probe> probes = new HashMap<>();
  private WeightedFilling filling;

  PhilaePolicy(ArrivalPlacement placement, DclasQueues queues) {
    this.placement = placement;
    this.queues = queues;
  }

  @Override
  public String name() {
    return "philae";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int m = view.hosts().size();
    int[][] hostOf = placement.placements(view);
    filling = WeightedFilling.forHosts(filling, view);
    probes.keySet().retainAll(active.stream().map(ActiveCoflow::index).toList());

    // Pilots still running, per port, so that new ones go where there are fewest.
    int[] pilotsOut = new int[m];
    int[] pilotsIn = new int[m];
    Probe[] probe = new Probe[active.size()];
    for (int i = 0; i < active.size(); i++) {
      probe[i] = probes.get(active.get(i).index());
      if (probe[i] != null) {
        PilotSampling.count(active.get(i), hostOf[i], probe[i].pilots, pilotsOut, pilotsIn);
      }
    }
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      if (probe[i] == null) {
        probe[i] = start(a, hostOf[i], pilotsOut, pilotsIn);
        if (probe[i] != null) {
          probes.put(a.index(), probe[i]);
        }
      } else if (probe[i].sampling() && pilotsDone(a, probe[i])) {
        probe[i].meanFlowBytes = meanBytes(a, probe[i].pilots);
      }
    }

    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    double[][] rates = new double[active.size()][];
    double wakeUpAt = Double.POSITIVE_INFINITY; // when a pilot ends: the estimate is due
    for (int i = 0; i < active.size(); i++) { // pilots first, whole ports, first come first
      ActiveCoflow a = active.get(i);
      rates[i] = new double[a.remaining().length];
      if (probe[i] != null && probe[i].sampling()) {
        PilotSampling.run(a, hostOf[i], probe[i].pilots, rates[i], outLeft, inLeft);
        for (int k : probe[i].pilots) {
          if (rates[i][k] > 0) {
            wakeUpAt = Math.min(wakeUpAt, view.now() + a.remaining()[k] / rates[i][k]);
          }
        }
      }
    }
    int[] queue = new int[active.size()];
    double[] sent = new double[active.size()];
    double[] contention = contention(active, hostOf, m);
    for (int i = 0; i < active.size(); i++) {
      sent[i] = active.get(i).sentBytes();
      if (probe[i] == null || probe[i].sampling()) {
        queue[i] = Integer.MAX_VALUE; // after every scheduled coflow: work conservation
      } else if (probe[i].thin()) {
        queue[i] = queues.queueOf(sent[i]);
      } else {
        queue[i] = queues.queueOf(probe[i].meanFlowBytes * contention[i]);
      }
    }
    for (int i : DclasQueues.order(queue)) {
      ActiveCoflow a = active.get(i);
      int[] pilots = probe[i] == null ? new int[0] : probe[i].pilots;
      double[] r =
          filling.fill(
              a, hostOf[i], k -> !PilotSampling.contains(pilots, k), Weight.FLOWS, outLeft, inLeft);
      for (int k = 0; k < r.length; k++) {
        rates[i][k] += r[k];
      }
      if (probe[i] != null && probe[i].thin()) {
        wakeUpAt = Math.min(wakeUpAt, queues.leavesAt(view.now(), sent[i], r));
      }
    }
    return Decision.of(hostOf, rates, wakeUpAt);
  }

  /**
   * Starts a coflow: thin ones need no pilots; a wide one gets its pilots ({@link
   * PilotSampling#choose}). Null while none of its flows can start (no reducer placed yet).
   */
  private static Probe start(ActiveCoflow a, int[] hostOf, int[] pilotsOut, int[] pilotsIn) {
    if (a.remaining().length <= THIN_LIMIT) {
      return new Probe(new int[0]);
    }
    int[] pilots = PilotSampling.choose(a, hostOf, k -> true, pilotsOut, pilotsIn);
    return pilots == null ? null : new Probe(pilots);
  }

  private static boolean pilotsDone(ActiveCoflow a, Probe probe) {
    for (int k : probe.pilots) {
      if (a.remaining()[k] > 0) {
        return false;
      }
    }
    return true;
  }

  /** The mean size of the pilot flows, known once they are done. */
  private static double meanBytes(ActiveCoflow a, int[] pilots) {
    double sum = 0;
    for (int k : pilots) {
      sum += a.coflow().flows().get(k).bytes();
    }
    return sum / pilots.length;
  }

  /**
   * Per coflow, the sum over the ports where it still has flows of the number of other coflows with
   * flows there (sending and receiving side of a host count as two ports).
   */
  private static double[] contention(List<ActiveCoflow> active, int[][] hostOf, int m) {
    int[][] ports = new int[active.size()][]; // host j sending is port j, receiving port m + j
    int[] coflowsAt = new int[2 * m];
    int[] seen = new int[2 * m];
    Arrays.fill(seen, -1);
    int[] buffer = new int[2 * m];
    for (int i = 0; i < active.size(); i++) {
      ActiveCoflow a = active.get(i);
      int n = 0;
      for (int k = 0; k < a.remaining().length; k++) {
        if (a.crossesNetwork(k, hostOf[i])) {
          for (int port : new int[] {a.flowSource()[k], m + hostOf[i][a.flowReducer()[k]]}) {
            if (seen[port] != i) {
              seen[port] = i;
              coflowsAt[port]++;
              buffer[n++] = port;
            }
          }
        }
      }
      ports[i] = Arrays.copyOf(buffer, n);
    }
    double[] sums = new double[active.size()];
    for (int i = 0; i < active.size(); i++) {
      for (int port : ports[i]) {
        sums[i] += coflowsAt[port] - 1;
      }
    }
    return sums;
  }
}
