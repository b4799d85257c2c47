package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.policy.ActiveCoflow;

/**
 * What one active coflow still has to move, aggregated the way the placement problem needs it: per
 * reducer its remaining bytes (the paper's w_n, up to the common factor f) and how many of them sit
 * on each source host (so a reducer placed on a source host fetches that part locally, section
 * IV-D), and per sender its remaining bytes. Immutable once built; valid for the coflow's {@link
 * ActiveCoflow#version()}.
 */
public final class CoflowDemand {

  private final ActiveCoflow active;
  private final CoflowShape shape;
  private final double[] work;
  private final double[] slotBytes;
  private final double[] senderBytes; // per shape.senders
  private final int[] pinnedHost;

  public CoflowDemand(ActiveCoflow active) {
    this(active, new CoflowShape(active.coflow()));
  }

  public CoflowDemand(ActiveCoflow active, CoflowShape shape) {
    this.active = active;
    this.shape = shape;
    int reducers = active.coflow().reducers().size();
    double[] remaining = active.remaining();
    slotBytes = new double[shape.sourceOfSlot.length];
    for (int k = 0; k < remaining.length; k++) {
      slotBytes[shape.slotOfFlow[k]] += remaining[k];
    }
    work = new double[reducers];
    double[] perHost =
        new double[shape.senders.length == 0 ? 0 : shape.senders[shape.senders.length - 1] + 1];
    for (int n = 0; n < reducers; n++) {
      for (int s = shape.firstSlot[n]; s < shape.firstSlot[n + 1]; s++) {
        work[n] += slotBytes[s];
        perHost[shape.sourceOfSlot[s]] += slotBytes[s];
      }
    }
    senderBytes = new double[shape.senders.length];
    for (int i = 0; i < senderBytes.length; i++) {
      senderBytes[i] = perHost[shape.senders[i]];
    }
    pinnedHost = new int[reducers];
    for (int n = 0; n < reducers; n++) {
      pinnedHost[n] = active.pinned()[n] ? active.hostOf()[n] : -1;
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
    int from = shape.firstSlot[n];
    int i = Arrays.binarySearch(shape.sourceOfSlot, from, shape.firstSlot[n + 1], host);
    return i >= 0 ? slotBytes[i] : 0;
  }

  /** Remaining bytes reducer n must fetch over the network if placed on {@code host}. */
  public double networkBytes(int n, int host) {
    return work[n] - bytesFrom(n, host);
  }

  /** The source host holding most of reducer n's remaining bytes, or -1 if it has none. */
  public int largestSource(int n) {
    int best = -1;
    double most = 0;
    for (int s = shape.firstSlot[n]; s < shape.firstSlot[n + 1]; s++) {
      if (slotBytes[s] > most) {
        most = slotBytes[s];
        best = shape.sourceOfSlot[s];
      }
    }
    return best;
  }

  /** True when some sender may also run reducers, so placement can make flows local. */
  public boolean sendersCanHostReducers(List<Host> hosts) {
    for (int u : shape.senders) {
      if (hosts.get(u).canHostReducers()) {
        return true;
      }
    }
    return false;
  }

  /** Calls {@code action} with each source host of reducer n and its remaining bytes there. */
  void forEachSource(int n, SourceAction action) {
    for (int s = shape.firstSlot[n]; s < shape.firstSlot[n + 1]; s++) {
      action.accept(shape.sourceOfSlot[s], slotBytes[s]);
    }
  }

  /** Receives one (source host, bytes) pair. */
  @FunctionalInterface
  interface SourceAction {
    void accept(int host, double bytes);
  }

  /** Distinct sending hosts (ascending); do not modify. */
  int[] senders() {
    return shape.senders;
  }

  /** Remaining bytes of each of {@link #senders()}; do not modify. */
  double[] senderBytes() {
    return senderBytes;
  }

  /** Host of reducer n if it is pinned, else -1. */
  public int pinnedHost(int n) {
    return pinnedHost[n];
  }
}
