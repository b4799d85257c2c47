package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * What one active coflow still has to move, aggregated the way the placement problem needs it: per
 * reducer its remaining bytes (the paper's w_n, up to the common factor f) and how many of them
 * sit on each source host (so a reducer placed on a source host fetches that part locally, section
 * IV-D), and per sender its remaining bytes.
 */
public final class CoflowDemand {

  private final ActiveCoflow active;
  private final double[] work;
  private final int[][] sources; // per reducer: source hosts, ascending
  private final double[][] sourceBytes; // per reducer: bytes from each source
  private final int[] senders; // distinct source hosts of the coflow, ascending
  private final double[] senderBytes;

  public CoflowDemand(ActiveCoflow active) {
    this.active = active;
    List<Flow> flows = active.coflow().flows();
    int reducers = active.coflow().reducers().size();
    work = new double[reducers];
    int[] count = new int[reducers];
    for (int k = 0; k < flows.size(); k++) {
      if (active.remaining()[k] > 0) {
        count[flows.get(k).reducer()]++;
      }
    }
    long[][] keyed = new long[reducers][];
    for (int n = 0; n < reducers; n++) {
      keyed[n] = new long[count[n]];
      count[n] = 0;
    }
    // Sort (src, flow) pairs per reducer, then merge equal sources.
    for (int k = 0; k < flows.size(); k++) {
      if (active.remaining()[k] > 0) {
        Flow f = flows.get(k);
        keyed[f.reducer()][count[f.reducer()]++] = ((long) f.src() << 32) | k;
      }
    }
    sources = new int[reducers][];
    sourceBytes = new double[reducers][];
    double[] perSender = new double[0];
    for (int n = 0; n < reducers; n++) {
      long[] ks = keyed[n];
      Arrays.sort(ks);
      int[] src = new int[ks.length];
      double[] bytes = new double[ks.length];
      int m = 0;
      for (long key : ks) {
        int s = (int) (key >>> 32);
        double r = active.remaining()[(int) key];
        if (m > 0 && src[m - 1] == s) {
          bytes[m - 1] += r;
        } else {
          src[m] = s;
          bytes[m++] = r;
        }
        work[n] += r;
        if (s >= perSender.length) {
          perSender = Arrays.copyOf(perSender, Math.max(s + 1, perSender.length * 2));
        }
        perSender[s] += r;
      }
      sources[n] = Arrays.copyOf(src, m);
      sourceBytes[n] = Arrays.copyOf(bytes, m);
    }
    int distinct = 0;
    for (double b : perSender) {
      distinct += b > 0 ? 1 : 0;
    }
    senders = new int[distinct];
    senderBytes = new double[distinct];
    for (int s = 0, i = 0; s < perSender.length; s++) {
      if (perSender[s] > 0) {
        senders[i] = s;
        senderBytes[i++] = perSender[s];
      }
    }
  }

  public ActiveCoflow active() {
    return active;
  }

  public int reducers() {
    return work.length;
  }

  /** Remaining bytes of reducer n, local or not. */
  public double work(int n) {
    return work[n];
  }

  /** Remaining bytes of reducer n that sit on {@code host}. */
  public double bytesFrom(int n, int host) {
    int i = Arrays.binarySearch(sources[n], host);
    return i >= 0 ? sourceBytes[n][i] : 0;
  }

  /** Remaining bytes reducer n must fetch over the network if placed on {@code host}. */
  public double networkBytes(int n, int host) {
    return work[n] - bytesFrom(n, host);
  }

  /** The source host holding most of reducer n's remaining bytes, or -1 if it has none. */
  public int largestSource(int n) {
    int best = -1;
    double most = 0;
    for (int i = 0; i < sources[n].length; i++) {
      if (sourceBytes[n][i] > most) {
        most = sourceBytes[n][i];
        best = sources[n][i];
      }
    }
    return best;
  }

  /** Source hosts of reducer n (ascending); do not modify. */
  int[] sources(int n) {
    return sources[n];
  }

  /** Bytes from each of {@link #sources(int)}; do not modify. */
  double[] sourceBytes(int n) {
    return sourceBytes[n];
  }

  /** Distinct sending hosts (ascending); do not modify. */
  int[] senders() {
    return senders;
  }

  /** Remaining bytes of each of {@link #senders()}; do not modify. */
  double[] senderBytes() {
    return senderBytes;
  }

  /** Host of reducer n if it is pinned, else -1. */
  public int pinnedHost(int n) {
    return active.pinned()[n] ? active.hostOf()[n] : -1;
  }
}
