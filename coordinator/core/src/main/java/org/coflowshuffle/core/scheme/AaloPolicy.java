/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.List;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.scheme.WeightedFilling.Weight;

/**
 * Aalo (SIGCOMM'15), the non-clairvoyant baseline Philae is measured against: it knows no coflow's
 * size and learns by serving. Every coflow starts in the highest of the {@link DclasQueues} and
 * moves down as the bytes it has sent cross each bound; queues are served in strict priority (as
 * the reference simulator does), coflows in a queue first-in first-out, the flows of a coflow
 * sharing fairly what the coflows before it left. The policy asks to be woken when a coflow will
 * cross its queue's bound. Placement is random at arrival.
 */
final class AaloPolicy implements SchedulingPolicy {

  private final ArrivalPlacement placement;
  private final DclasQueues queues;
  private WeightedFilling filling;

  AaloPolicy(ArrivalPlacement placement, DclasQueues queues) {
    this.placement = placement;
    this.queues = queues;
  }

  @Override
  public String name() {
    return "aalo";
  }

  @Override
  public Decision decide(ClusterView view) {
    List<ActiveCoflow> active = view.coflows();
    int[][] hostOf = placement.placements(view);
    filling = WeightedFilling.forHosts(filling, view);
    double[] sent = new double[active.size()];
    int[] queue = new int[active.size()];
    for (int i = 0; i < active.size(); i++) {
      sent[i] = active.get(i).sentBytes();
      queue[i] = queues.queueOf(sent[i]);
    }
    double[] outLeft = Bandwidth.outgoing(view);
    double[] inLeft = Bandwidth.incoming(view);
    double[][] rates = new double[active.size()][];
    double wakeUpAt = Double.POSITIVE_INFINITY;
    for (int i : DclasQueues.order(queue)) {
      ActiveCoflow a = active.get(i);
      rates[i] = filling.fill(a, hostOf[i], k -> true, Weight.FLOWS, outLeft, inLeft);
      wakeUpAt = Math.min(wakeUpAt, queues.leavesAt(view.now(), sent[i], rates[i]));
    }
    return Decision.of(hostOf, rates, wakeUpAt);
  }
}
