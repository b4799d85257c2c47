/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.placement.RateBound;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Single coflows small enough to enumerate every placement: the schemes' CCT lies between the
 * optimum and twice it (Theorem 5), and LP (3)'s bound never exceeds the optimum.
 */
class SingleCoflowOptimumTest {

  @Test
  void rpcIsWithinTwiceTheOptimumAndTheLpBoundBelowIt() {
    Random rnd = new Random(20261122L);
    double worst = 0;
    double worstFaithful = 0;
    for (int trial = 0; trial < 300; trial++) {
      int receivers = 1 + rnd.nextInt(4);
      Instance inst =
          RandomInstances.singleCoflow(rnd, receivers, 1 + rnd.nextInt(3), 1 + rnd.nextInt(6));
      double opt = bruteForce(inst, receivers);
      double bound = 1 / lpBound(inst, receivers);
      assertTrue(bound <= opt * (1 + 1e-9), "LP (3) bound " + bound + " above optimum " + opt);
      double rpc = cct(inst, "rpc");
      double faithful = cct(inst, "rpc-faithful");
      assertTrue(rpc >= opt * (1 - 1e-9), "rpc " + rpc + " below optimum " + opt);
      assertTrue(rpc <= 2 * opt * (1 + 1e-9), "rpc " + rpc + " above twice optimum " + opt);
      assertTrue(
          faithful >= opt * (1 - 1e-9) && faithful <= 2 * opt * (1 + 1e-9),
          "rpc-faithful " + faithful + " vs optimum " + opt);
      if (opt > 0) {
        worst = Math.max(worst, rpc / opt);
        worstFaithful = Math.max(worstFaithful, faithful / opt);
      }
    }
    System.out.printf(
        "single coflow, 300 seeded instances: worst rpc/OPT %.4f, worst rpc-faithful/OPT %.4f%n",
        worst, worstFaithful);
  }

  private static double cct(Instance inst, String scheme) {
    Schedule s = ScheduleRunner.run(inst, Schemes.create(scheme, SchemeOptions.defaults()));
    FeasibilityChecker.check(inst, s);
    return s.coflows().get(0).cct();
  }

  /** LP (3)'s frequency: all reducer hosts merged into one. */
  private static double lpBound(Instance inst, int receivers) {
    List<Flow> flows = inst.coflows().get(0).flows();
    double[] bytes = new double[flows.size()];
    int[] sender = new int[flows.size()];
    for (int k = 0; k < bytes.length; k++) {
      bytes[k] = flows.get(k).bytes();
      sender[k] = flows.get(k).src();
    }
    double[] out = inst.hosts().stream().mapToDouble(Host::outBytesPerSec).toArray();
    double sumBin = 0;
    for (int j = 0; j < receivers; j++) {
      sumBin += inst.hosts().get(j).inBytesPerSec();
    }
    return RateBound.maxFrequency(bytes, sender, out, sumBin);
  }

  /**
   * With constant bandwidth and a fixed placement, the least CCT is the most loaded link's bytes
   * over its bandwidth (Theorem 1); senders host no reducers, so their load is fixed.
   */
  private static double bruteForce(Instance inst, int receivers) {
    var coflow = inst.coflows().get(0);
    int n = coflow.reducers().size();
    double[] work = new double[n];
    double[] sent = new double[inst.hosts().size()];
    for (Flow f : coflow.flows()) {
      work[f.reducer()] += f.bytes();
      sent[f.src()] += f.bytes();
    }
    double senderTime = 0;
    for (int u = 0; u < sent.length; u++) {
      if (sent[u] > 0) {
        senderTime = Math.max(senderTime, sent[u] / inst.hosts().get(u).outBytesPerSec());
      }
    }
    double best = Double.POSITIVE_INFINITY;
    int[] hostOf = new int[n];
    int total = (int) Math.pow(receivers, n);
    for (int code = 0; code < total; code++) {
      double[] load = new double[receivers];
      for (int r = 0, c = code; r < n; r++, c /= receivers) {
        hostOf[r] = c % receivers;
        load[hostOf[r]] += work[r];
      }
      double t = senderTime;
      for (int j = 0; j < receivers; j++) {
        t = Math.max(t, load[j] / inst.hosts().get(j).inBytesPerSec());
      }
      best = Math.min(best, t);
    }
    return best;
  }
}
