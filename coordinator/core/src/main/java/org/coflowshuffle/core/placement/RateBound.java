/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

/**
 * The closed form of LP (3) of the RPC paper: the largest coflow transmission frequency {@code f}
 * (the inverse of the least coflow completion time) when every reducer host is merged into one
 * "big" host whose incoming bandwidth is the sum of theirs.
 *
 * <p>Why a closed form suffices: constraint (3c) fixes every flow's rate to {@code r_k = v_k f}, so
 * {@code f} is the only free variable. Substituting, (3a) reads {@code f * sum_k v_k <= sumBin} and
 * (3b) reads {@code f * V_u <= bout_u} for each sender {@code u}, where {@code V_u} is the bytes
 * {@code u} sends. Each constraint caps {@code f} by one ratio (or not at all when its bytes are
 * 0), and {@code f >= 0} is otherwise free, so the maximum is the least of those ratios:
 *
 * <pre>f = min( sumBin / sum_k v_k , min over u with V_u > 0 of bout_u / V_u )</pre>
 *
 * <p>Solving (3) with an LP solver is therefore never needed at run time; {@code
 * org.coflowshuffle.core.lp.RateBoundLp} solves it anyway so that tests can check this formula.
 */
public final class RateBound {

  private RateBound() {}

  /**
   * Largest frequency {@code f} of LP (3).
   *
   * @param bytes v_k, bytes of flow k, finite and at least 0
   * @param sender index of the host sending flow k, into {@code senderOut}
   * @param senderOut b^out_u, outgoing bandwidth of host u, at least 0 (may be +Infinity)
   * @param sumBin sum of b^in_j over the reducer hosts, at least 0 (may be +Infinity)
   * @return {@code f}, or {@link Double#POSITIVE_INFINITY} when no flow carries a byte
   */
  public static double maxFrequency(
      double[] bytes, int[] sender, double[] senderOut, double sumBin) {
    double[] sent = bytesPerSender(bytes, sender, senderOut);
    if (!(sumBin >= 0)) {
      throw new IllegalArgumentException("sum of incoming bandwidths " + sumBin);
    }
    double total = 0;
    for (double v : bytes) {
      total += v;
    }
    if (total == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double f = sumBin / total; // (3a)
    for (int u = 0; u < sent.length; u++) {
      if (sent[u] > 0) {
        f = Math.min(f, senderOut[u] / sent[u]); // (3b)
      }
    }
    return f;
  }

  /**
   * V_u: the bytes each sender sends, after checking the inputs of LP (3) (shared with the LP
   * version, so both reject the same inputs with the same messages).
   *
   * @throws IllegalArgumentException naming the flow or host whose value is out of range
   */
  public static double[] bytesPerSender(double[] bytes, int[] sender, double[] senderOut) {
    if (bytes.length != sender.length) {
      throw new IllegalArgumentException(
          bytes.length + " flow sizes but " + sender.length + " flow senders");
    }
    for (int u = 0; u < senderOut.length; u++) {
      if (!(senderOut[u] >= 0)) {
        throw new IllegalArgumentException("host " + u + ": outgoing bandwidth " + senderOut[u]);
      }
    }
    double[] sent = new double[senderOut.length];
    for (int k = 0; k < bytes.length; k++) {
      if (!(bytes[k] >= 0) || Double.isInfinite(bytes[k])) {
        throw new IllegalArgumentException("flow " + k + ": bytes " + bytes[k]);
      }
      if (sender[k] < 0 || sender[k] >= senderOut.length) {
        throw new IllegalArgumentException(
            "flow "
                + k
                + ": sender "
                + sender[k]
                + " is not one of "
                + senderOut.length
                + " hosts");
      }
      sent[sender[k]] += bytes[k];
    }
    return sent;
  }
}
