package org.coflowshuffle.core.plan;

/**
 * Turns a placement into a {@link CoflowPlan}: per host the bytes that cross its links, and the
 * completion estimate of section IV-C, where every link of the coflow sends as fast as the
 * bandwidth left to it allows, rising as earlier coflows release bandwidth (water-filling). With
 * constant bandwidth this is exact: max(max_j W_j / b_in_j, max_u V_u / b_out_u).
 */
public final class PlanEvaluator {

  private PlanEvaluator() {}

  public static CoflowPlan evaluate(CoflowDemand d, int[] hostOf, NetworkProfile net) {
    int m = net.hostCount();
    double[] received = new double[m];
    double[] sent = new double[m];
    int[] senders = d.senders();
    double[] senderBytes = d.senderBytes();
    for (int i = 0; i < senders.length; i++) {
      sent[senders[i]] = senderBytes[i];
    }
    double unplaced = 0;
    for (int n = 0; n < hostOf.length; n++) {
      int h = hostOf[n];
      if (h >= 0) {
        double local = d.bytesFrom(n, h);
        received[h] += d.work(n) - local;
        sent[h] -= local;
      } else {
        unplaced += d.work(n);
        d.forEachSource(n, (src, bytes) -> sent[src] -= bytes);
      }
    }
    double finish = net.now();
    double inTotal = 0;
    for (int j = 0; j < m; j++) {
      if (received[j] > 1e-9) {
        finish = Math.max(finish, net.in(j).timeToCarry(received[j]));
      } else {
        received[j] = 0;
      }
      if (sent[j] > 1e-9) {
        finish = Math.max(finish, net.out(j).timeToCarry(sent[j]));
      } else {
        sent[j] = 0;
      }
      if (net.hosts().get(j).acceptsReducers()) {
        inTotal += net.hosts().get(j).inBytesPerSec();
      }
    }
    if (unplaced > 0) {
      // A later wave (section IV-D, multi-wave): at best it gets the whole cluster afterwards.
      finish += inTotal > 0 ? unplaced / inTotal : Double.POSITIVE_INFINITY;
    }
    return new CoflowPlan(d, hostOf, finish, received, sent);
  }
}
