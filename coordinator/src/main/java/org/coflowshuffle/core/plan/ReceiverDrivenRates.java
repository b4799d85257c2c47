package org.coflowshuffle.core.plan;

import java.util.List;
import org.coflowshuffle.core.model.Flow;

/**
 * RPC's rates: every host that receives for the coflow takes all the incoming bandwidth it has
 * left, shared among its flows in proportion to their remaining bytes, so that they end together
 * (MADD within a host); a sender that would exceed its outgoing bandwidth slows its flows in
 * proportion. Unlike Algorithm 3 (lines 5-8), hosts that are not the coflow's bottleneck finish
 * early rather than at the coflow's end, which frees them sooner for the next coflow without
 * delaying this one.
 */
public final class ReceiverDrivenRates implements RateRule {

  @Override
  public double[] commit(CoflowPlan plan, NetworkProfile net) {
    CoflowDemand d = plan.demand();
    List<Flow> flows = d.active().coflow().flows();
    double[] remaining = d.active().remaining();
    double[] rates = new double[flows.size()];
    double[] senderLoad = new double[net.hostCount()];
    for (int k = 0; k < rates.length; k++) {
      Flow f = flows.get(k);
      int h = plan.hostOf()[f.reducer()];
      if (remaining[k] > 0 && h >= 0 && h != f.src() && plan.received()[h] > 0) {
        rates[k] = remaining[k] * net.in(h).rateNow() / plan.received()[h];
        senderLoad[f.src()] += rates[k];
      }
    }
    for (int k = 0; k < rates.length; k++) {
      int u = flows.get(k).src();
      if (rates[k] > 0 && senderLoad[u] > net.out(u).rateNow()) {
        rates[k] *= net.out(u).rateNow() / senderLoad[u];
      }
    }
    double[] actualIn = new double[net.hostCount()];
    double[] actualOut = new double[net.hostCount()];
    for (int k = 0; k < rates.length; k++) {
      if (rates[k] > 0) {
        actualIn[plan.hostOf()[flows.get(k).reducer()]] += rates[k];
        actualOut[flows.get(k).src()] += rates[k];
      }
    }
    for (int j = 0; j < net.hostCount(); j++) {
      take(net.in(j), plan.received()[j], actualIn[j], net.now(), true);
      take(net.out(j), plan.sent()[j], actualOut[j], net.now(), false);
    }
    RateRule.takeSlots(plan, net);
    return rates;
  }

  /**
   * Takes from B what the coflow uses of one link: all of it while the link is the limit (and, for
   * a receiver that must wait, the bandwidth it waits for), else only the rate it runs at now, for
   * as long as its bytes need at that rate.
   */
  private static void take(
      LinkProfile link, double bytes, double rate, double now, boolean waitsForLink) {
    if (bytes <= 0) {
      return;
    }
    if (rate >= link.rateNow() * (1 - 1e-9) && rate > 0 || rate <= 0 && waitsForLink) {
      link.consume(bytes);
    } else if (rate > 0) {
      link.reserve(now, now + bytes / rate, rate);
    }
  }
}
