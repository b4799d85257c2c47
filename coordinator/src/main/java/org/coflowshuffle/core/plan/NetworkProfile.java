package org.coflowshuffle.core.plan;

import java.util.List;
import org.coflowshuffle.core.model.Host;

/**
 * The bandwidth B and the reducer slots of Algorithm 1 during one invocation: what the coflows
 * served so far in this invocation have left, over time. Starts as the whole cluster and shrinks as
 * each chosen coflow is committed (line 15).
 *
 * <p>Mutable, confined to one policy invocation.
 */
public final class NetworkProfile {

  private final double now;
  private final List<Host> hosts;
  private final LinkProfile[] in;
  private final LinkProfile[] out;
  private final int[] freeSlots;

  /** The whole cluster at time {@code now}, less the slots of reducers already running. */
  public NetworkProfile(double now, List<Host> hosts, int[] slotsInUse) {
    this.now = now;
    this.hosts = hosts;
    int m = hosts.size();
    in = new LinkProfile[m];
    out = new LinkProfile[m];
    freeSlots = new int[m];
    for (int j = 0; j < m; j++) {
      Host h = hosts.get(j);
      in[j] = new LinkProfile(now, h.inBytesPerSec());
      out[j] = new LinkProfile(now, h.outBytesPerSec());
      freeSlots[j] = h.freeSlots(slotsInUse[j]);
    }
  }

  /** The time of the invocation: where every profile starts. */
  public double now() {
    return now;
  }

  public int hostCount() {
    return in.length;
  }

  public List<Host> hosts() {
    return hosts;
  }

  public LinkProfile in(int host) {
    return in[host];
  }

  public LinkProfile out(int host) {
    return out[host];
  }

  /** Slots left on the host for reducers that are not pinned yet. */
  public int freeSlots(int host) {
    return freeSlots[host];
  }

  /**
   * True while a flow could still start now: some host that may run reducers has incoming bandwidth
   * free and some host has outgoing bandwidth free. Once not, every coflow not yet served waits,
   * whatever its plan. Slots do not matter here: a reducer already running needs no new slot.
   */
  public boolean anyBandwidthNow() {
    boolean receiver = false;
    boolean sender = false;
    for (int j = 0; j < in.length && !(receiver && sender); j++) {
      receiver |= hosts.get(j).canHostReducers() && in[j].rateNow() > 0;
      sender |= out[j].rateNow() > 0;
    }
    return receiver && sender;
  }

  /** Takes one slot of the host for a newly placed reducer. */
  public void takeSlot(int host) {
    if (freeSlots[host] != Integer.MAX_VALUE) {
      freeSlots[host]--;
    }
  }
}
