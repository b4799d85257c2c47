package org.coflowshuffle.core.plan;

/**
 * RPC's rates: every host that receives for the coflow takes all the incoming bandwidth it has
 * left, and its flows end together (MADD within a host) — unless a sender it receives from needs
 * longer for its bytes, in which case the host's flows all stretch to that sender's time. Unlike
 * Algorithm 3 (lines 5-8), hosts that are not the coflow's bottleneck can finish early rather than
 * at the coflow's end, which frees them sooner for the next coflow without delaying this one; and
 * since a host's flows still end together, a coflow ends in at most one event per receiving host.
 * Flows from a sender with no bandwidth free now wait for the next decision.
 */
public final class ReceiverDrivenRates implements RateRule {

  @Override
  public double[] commit(CoflowPlan plan, NetworkProfile net) {
    CoflowDemand d = plan.demand();
    CoflowShape shape = d.shape();
    double[] remaining = d.active().remaining();
    int m = net.hostCount();
    int[] hostOf = plan.hostOf();
    // Seconds each receiving host needs on its own link, then stretched to its senders' time.
    double[] span = new double[m];
    for (int h = 0; h < m; h++) {
      double free = net.in(h).rateNow();
      span[h] = plan.received()[h] > 0 && free > 0 ? plan.received()[h] / free : 0;
    }
    double[] senderBytes = new double[m];
    for (int k = 0; k < remaining.length; k++) { // flow order: sequential in memory
      if (sends(k, shape, hostOf, remaining, span)) {
        senderBytes[shape.sourceOfFlow[k]] += remaining[k];
      }
    }
    double[] senderSpan = new double[m];
    for (int u = 0; u < m; u++) {
      double free = net.out(u).rateNow();
      senderSpan[u] = senderBytes[u] > 0 && free > 0 ? senderBytes[u] / free : 0;
    }
    for (int k = 0; k < remaining.length; k++) {
      if (sends(k, shape, hostOf, remaining, span)) {
        int h = hostOf[shape.reducerOfFlow[k]];
        span[h] = Math.max(span[h], senderSpan[shape.sourceOfFlow[k]]);
      }
    }
    double[] rates = new double[remaining.length];
    double[] actualIn = new double[m];
    double[] actualOut = new double[m];
    for (int k = 0; k < remaining.length; k++) {
      int u = shape.sourceOfFlow[k];
      if (sends(k, shape, hostOf, remaining, span) && senderSpan[u] > 0) {
        int h = hostOf[shape.reducerOfFlow[k]];
        rates[k] = remaining[k] / span[h];
        actualIn[h] += rates[k];
        actualOut[u] += rates[k];
      }
    }
    for (int j = 0; j < m; j++) {
      take(net.in(j), plan.received()[j], actualIn[j], net.now(), true);
      take(net.out(j), plan.sent()[j], actualOut[j], net.now(), false);
    }
    RateRule.takeSlots(plan, net);
    return rates;
  }

  /** Flow k crosses the network to a host that has bandwidth for it now. */
  private static boolean sends(
      int k, CoflowShape shape, int[] hostOf, double[] remaining, double[] span) {
    int h = hostOf[shape.reducerOfFlow[k]];
    return remaining[k] > 0 && h >= 0 && span[h] > 0 && shape.sourceOfFlow[k] != h;
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
