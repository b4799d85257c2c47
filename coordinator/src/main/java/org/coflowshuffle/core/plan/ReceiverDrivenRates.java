package org.coflowshuffle.core.plan;

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
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    int m = net.hostCount();
    double[] theta = new double[d.reducers()]; // share of its remaining bytes per second
    boolean any = false;
    for (int n = 0; n < theta.length; n++) {
      int h = plan.hostOf()[n];
      if (h >= 0 && plan.received()[h] > 0 && net.in(h).rateNow() > 0) {
        theta[n] = net.in(h).rateNow() / plan.received()[h];
        any = true;
      }
    }
    double[] rates = new double[remaining.length];
    double[] actualIn = new double[m];
    double[] actualOut = new double[m];
    if (any) {
      double[] senderLoad = new double[m];
      for (int k = 0; k < rates.length; k++) { // flow order: sequential in memory
        int n = shape.reducerOfFlow[k];
        if (theta[n] > 0 && remaining[k] > 0 && shape.sourceOfFlow[k] != plan.hostOf()[n]) {
          rates[k] = remaining[k] * theta[n];
          senderLoad[shape.sourceOfFlow[k]] += rates[k];
        }
      }
      double[] senderScale = new double[m];
      for (int u = 0; u < m; u++) {
        double free = net.out(u).rateNow();
        senderScale[u] = senderLoad[u] > free ? free / senderLoad[u] : 1;
      }
      for (int k = 0; k < rates.length; k++) {
        if (rates[k] > 0) {
          int u = shape.sourceOfFlow[k];
          rates[k] *= senderScale[u];
          actualIn[plan.hostOf()[shape.reducerOfFlow[k]]] += rates[k];
          actualOut[u] += rates[k];
        }
      }
    }
    for (int j = 0; j < m; j++) {
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
