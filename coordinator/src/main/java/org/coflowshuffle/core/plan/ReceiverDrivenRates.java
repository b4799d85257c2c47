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
    double[] received = plan.received();
    double[] sent = plan.sent();
    int m = net.hostCount();
    int[] hostOf = plan.hostOf();
    int[] touched = plan.touched(); // a decision commits every coflow: not a loop over all hosts
    // Seconds each receiving host needs on its own link, then stretched to its senders' time.
    double[] span = new double[m];
    for (int h : touched) {
      if (received[h] > 0) {
        double free = net.in(h).rateNow();
        span[h] = free > 0 ? received[h] / free : 0;
      }
    }
    // Per reducer, the host it receives on now, or -1 when none of its flows move now.
    int[] to = new int[hostOf.length];
    boolean allMove = !d.hasLocality(); // with locality a flow may stay on its host
    double shortestSpan = Double.POSITIVE_INFINITY;
    for (int n = 0; n < to.length; n++) {
      int h = hostOf[n];
      to[n] = h >= 0 && span[h] > 0 ? h : -1;
      if (to[n] >= 0) {
        shortestSpan = Math.min(shortestSpan, span[h]);
      } else if (d.work(n) > 0) {
        allMove = false;
      }
    }
    double[] senderBytes = new double[m];
    if (allMove) { // every remaining byte moves now: the senders' totals as they are
      int[] senders = d.senders();
      for (int i = 0; i < senders.length; i++) {
        senderBytes[senders[i]] = d.senderBytes()[i];
      }
    } else {
      SenderRun run = new SenderRun(senderBytes);
      for (int k = 0; k < remaining.length; k++) { // flow order: sequential in memory
        if (sends(remaining, shape, to, k)) {
          run.add(shape.sourceOfFlow[k], remaining[k]);
        }
      }
      run.close();
    }
    double[] senderSpan = new double[m];
    double longestSenderSpan = 0;
    for (int u : shape.senders) {
      if (senderBytes[u] > 0) {
        double free = net.out(u).rateNow();
        senderSpan[u] = free > 0 ? senderBytes[u] / free : 0;
        longestSenderSpan = Math.max(longestSenderSpan, senderSpan[u]);
      }
    }
    if (longestSenderSpan > shortestSpan) { // some receiver waits for a sender
      for (int k = 0; k < remaining.length; k++) { // flow order: sequential in memory
        if (sends(remaining, shape, to, k)) {
          int h = to[shape.reducerOfFlow[k]];
          span[h] = Math.max(span[h], senderSpan[shape.sourceOfFlow[k]]);
        }
      }
    }
    double[] rates = new double[remaining.length];
    double[] actualIn = new double[m];
    double[] actualOut = new double[m];
    SenderRun out = new SenderRun(actualOut);
    for (int k = 0; k < remaining.length; k++) {
      int u = shape.sourceOfFlow[k];
      if (senderSpan[u] > 0 && sends(remaining, shape, to, k)) {
        int h = to[shape.reducerOfFlow[k]];
        double rate = remaining[k] / span[h];
        rates[k] = rate;
        actualIn[h] += rate;
        out.add(u, rate);
      }
    }
    out.close();
    for (int j : touched) {
      if (received[j] > 0) {
        take(net.in(j), received[j], actualIn[j], net.now(), true);
      }
      if (sent[j] > 0) { // a sender whose link is full now waits for it, as a receiver does
        take(net.out(j), sent[j], actualOut[j], net.now(), net.out(j).rateNow() <= 0);
      }
    }
    RateRule.takeSlots(plan, net);
    return rates;
  }

  /**
   * Sums per sender with the running sum in a register while consecutive flows share their sender
   * (flows are usually ordered by sender): the same additions in the same order as adding into the
   * array flow by flow, so the same bits, without each addition waiting for the store of the one
   * before (in the Fig. 9 setting of {@code bench decision}, a decision's mean 8% lower).
   */
  private static final class SenderRun {
    private final double[] sums;
    private int sender = -1;
    private double sum;

    SenderRun(double[] sums) {
      this.sums = sums;
    }

    void add(int u, double value) {
      if (u != sender) {
        close();
        sender = u;
        sum = sums[u];
      }
      sum += value;
    }

    /** Writes the current sender's sum back; call after the last {@link #add}. */
    void close() {
      if (sender >= 0) {
        sums[sender] = sum;
      }
    }
  }

  /** Whether flow k crosses the network now: it has bytes and its reducer receives elsewhere. */
  private static boolean sends(double[] remaining, CoflowShape shape, int[] to, int k) {
    int h = to[shape.reducerOfFlow[k]];
    return remaining[k] > 0 && h >= 0 && h != shape.sourceOfFlow[k];
  }

  /**
   * Takes from B what the coflow uses of one link: all of it while the link is the limit (and, for
   * a link the coflow must wait for, the bandwidth it waits for), else only the rate it runs at
   * now, for as long as its bytes need at that rate. Booking what waits matters for the coflows
   * planned after this one: a sender's bytes held back by its full uplink cross it later all the
   * same, and a later coflow that took that uplink for free would be placed as if it were.
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
