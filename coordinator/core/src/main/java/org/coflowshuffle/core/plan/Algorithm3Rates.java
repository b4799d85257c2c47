/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.List;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.placement.RateBound;

/**
 * The paper's rates (Algorithm 3, lines 1 and 3-8) on the bandwidth free now: every flow gets r_k =
 * v_k * f with f from LP (3), and the flows into a host whose share would exceed its bandwidth are
 * scaled down by alpha_j. Flows into hosts with alpha_j < 1 are not sped up, as the paper notes.
 * The bandwidth taken is held at those constant rates until the flows end.
 */
public final class Algorithm3Rates implements RateRule {

  @Override
  public double[] commit(CoflowPlan plan, NetworkProfile net) {
    CoflowDemand d = plan.demand();
    List<Flow> flows = d.active().coflow().flows();
    double[] remaining = d.active().remaining();
    int m = net.hostCount();
    double[] rates = new double[flows.size()];
    double[] senderBw = new double[m];
    double[] bytes = new double[flows.size()];
    int[] sender = new int[flows.size()];
    double sumBin = 0;
    for (int j = 0; j < m; j++) {
      senderBw[j] = net.out(j).rateNow();
      if (net.hosts().get(j).canHostReducers()) {
        sumBin += net.in(j).rateNow();
      }
    }
    for (int k = 0; k < rates.length; k++) {
      Flow f = flows.get(k);
      int h = plan.hostOf()[f.reducer()];
      sender[k] = f.src();
      if (remaining[k] > 0 && h >= 0 && h != f.src()) {
        bytes[k] = remaining[k];
      }
    }
    double freq = RateBound.maxFrequency(bytes, sender, senderBw, sumBin); // LP (3)
    if (!(freq > 0) || freq == Double.POSITIVE_INFINITY) {
      RateRule.takeSlots(plan, net);
      return rates;
    }
    double[] hostRate = new double[m];
    for (int k = 0; k < rates.length; k++) {
      Flow f = flows.get(k);
      int h = plan.hostOf()[f.reducer()];
      if (remaining[k] > 0 && h >= 0 && h != f.src()) {
        hostRate[h] += remaining[k] * freq;
      }
    }
    double[] scale = new double[m]; // 1 / max(1, alpha_j), line 6
    for (int j = 0; j < m; j++) {
      double free = net.in(j).rateNow();
      scale[j] = hostRate[j] <= 0 ? 0 : free <= 0 ? 0 : 1 / Math.max(1, hostRate[j] / free);
    }
    double now = net.now();
    double[] senderRate = new double[m];
    double[] senderEnd = new double[m];
    for (int k = 0; k < rates.length; k++) {
      Flow f = flows.get(k);
      int h = plan.hostOf()[f.reducer()];
      if (remaining[k] > 0 && h >= 0 && h != f.src() && scale[h] > 0) {
        rates[k] = remaining[k] * freq * scale[h];
        senderRate[f.src()] += rates[k];
        senderEnd[f.src()] = Math.max(senderEnd[f.src()], now + remaining[k] / rates[k]);
      }
    }
    for (int j = 0; j < m; j++) {
      if (scale[j] > 0) {
        net.in(j).reserve(now, now + 1 / (freq * scale[j]), hostRate[j] * scale[j]);
      }
      net.out(j).reserve(now, senderEnd[j], senderRate[j]);
    }
    RateRule.takeSlots(plan, net);
    return rates;
  }
}
