/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Host;

/**
 * The bandwidth B and the reducer slots of Algorithm 1 during one invocation: what the coflows
 * served so far in this invocation have left, over time. Starts as the whole cluster and shrinks as
 * each chosen coflow is committed (line 15).
 *
 * <p>Mutable, confined to one policy invocation; a policy may {@linkplain #reset reset} it for its
 * next one.
 */
public final class NetworkProfile {

  private double now;
  private final List<Host> hosts;
  private final LinkProfile[] in;
  private final LinkProfile[] out;
  private final int[] freeSlots; // free now
  private double[][] slotsFreeing; // per host, ascending: when the slots in use free up
  private final int[] freeingTaken; // per host, how many of those are taken in this invocation
  private boolean anyFreeing;
  private final boolean slotsLimited; // some host that may run reducers has a slot limit
  private final double fastestReducerHost; // the most incoming bandwidth of one that may
  private double fastestFreeNow = Double.NaN; // see fastestReceiverFreeNow; NaN: not known
  private boolean idle; // no link has lost bandwidth in this invocation
  private int epoch;
  private final int[] changedIn; // per link (in links, then out links): the epoch it last changed
  // Per host, its links' whole bandwidths: a reset reads these arrays, not 2,000 host fields.
  private final double[] inWhole;
  private final double[] outWhole;
  private final boolean[] mayHostReducers;
  private final int[] reducerSlots; // per host, as its Host gives them
  private final int reducerHosts;
  private final double acceptingIn; // the incoming bandwidth of the hosts that accept reducers
  private final double fastestAccepting; // and of the fastest of them
  private final double[][] noneFreeing; // no slot freeing on any host
  private double[] reducerSpeeds; // see reducerSpeeds(); null until asked

  /** The whole cluster at time {@code now}, less the slots of reducers already running. */
  public NetworkProfile(double now, List<Host> hosts, int[] slotsInUse) {
    this(now, hosts, slotsInUse, null);
  }

  /**
   * As {@link #NetworkProfile(double, List, int[])}, where some slots in use free up at the times
   * {@code slotsFreeing} gives per host (ascending; null for none): a reducer may take one and
   * starts then.
   */
  public NetworkProfile(double now, List<Host> hosts, int[] slotsInUse, double[][] slotsFreeing) {
    this.hosts = hosts;
    int m = hosts.size();
    in = new LinkProfile[m];
    out = new LinkProfile[m];
    inWhole = new double[m];
    outWhole = new double[m];
    mayHostReducers = new boolean[m];
    reducerSlots = new int[m];
    int reducerHosts = 0;
    boolean slotsLimited = false;
    double fastestReducerHost = 0;
    double acceptingIn = 0;
    double fastestAccepting = 0;
    for (int j = 0; j < m; j++) {
      Host h = hosts.get(j);
      inWhole[j] = h.inBytesPerSec();
      outWhole[j] = h.outBytesPerSec();
      mayHostReducers[j] = h.canHostReducers();
      reducerSlots[j] = h.reducerSlots();
      if (mayHostReducers[j]) {
        reducerHosts++;
        slotsLimited |= reducerSlots[j] != Host.UNLIMITED_SLOTS;
        fastestReducerHost = Math.max(fastestReducerHost, inWhole[j]);
      }
      if (h.acceptsReducers()) {
        acceptingIn += inWhole[j];
        fastestAccepting = Math.max(fastestAccepting, inWhole[j]);
      }
      in[j] = new LinkProfile(now, inWhole[j], this, j);
      out[j] = new LinkProfile(now, outWhole[j], this, m + j);
    }
    this.reducerHosts = reducerHosts;
    this.slotsLimited = slotsLimited;
    this.fastestReducerHost = fastestReducerHost;
    this.acceptingIn = acceptingIn;
    this.fastestAccepting = fastestAccepting;
    noneFreeing = new double[m][];
    Arrays.fill(noneFreeing, new double[0]);
    freeSlots = new int[m];
    freeingTaken = new int[m];
    changedIn = new int[2 * m];
    start(now, slotsInUse, slotsFreeing);
  }

  /**
   * Makes this profile again, for the same hosts, as {@link #NetworkProfile(double, List, int[],
   * double[][])} would make it at {@code now}: its links keep their arrays, and nothing else of the
   * last invocation is kept, so that an invocation does not build two links per host afresh.
   */
  public void reset(double now, int[] slotsInUse, double[][] slotsFreeing) {
    for (int j = 0; j < in.length; j++) {
      in[j].reset(now, inWhole[j]);
      out[j].reset(now, outWhole[j]);
    }
    Arrays.fill(freeingTaken, 0);
    start(now, slotsInUse, slotsFreeing);
  }

  /**
   * Sets what the links do not hold: the time and the slots (from arrays kept for the hosts: this
   * runs at every invocation, and the arrays spare it reading every host's fields each time).
   */
  private void start(double now, int[] slotsInUse, double[][] slotsFreeing) {
    this.now = now;
    this.slotsFreeing = slotsFreeing == null ? noneFreeing : slotsFreeing;
    Arrays.fill(changedIn, -1);
    epoch = 0;
    anyFreeing = false;
    fastestFreeNow = Double.NaN;
    idle = true;
    for (int j = 0; j < in.length; j++) {
      freeSlots[j] =
          !mayHostReducers[j]
              ? 0
              : reducerSlots[j] == Host.UNLIMITED_SLOTS
                  ? Integer.MAX_VALUE
                  : Math.max(0, reducerSlots[j] - slotsInUse[j]); // as Host.freeSlots
      anyFreeing |= freeSlots[j] != Integer.MAX_VALUE && this.slotsFreeing[j].length > 0;
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

  /** The whole bandwidth of the host's incoming link. */
  double inWhole(int host) {
    return inWhole[host];
  }

  /** The whole bandwidth of the host's outgoing link. */
  double outWhole(int host) {
    return outWhole[host];
  }

  /**
   * The whole incoming bandwidth of the hosts that {@linkplain Host#acceptsReducers accept
   * reducers}, summed in host order.
   */
  double acceptingIn() {
    return acceptingIn;
  }

  /** The whole incoming bandwidth of the fastest host that accepts reducers. */
  double fastestAccepting() {
    return fastestAccepting;
  }

  /** Whether the host may run reducers at all (slots aside). */
  boolean mayHostReducers(int host) {
    return mayHostReducers[host];
  }

  /** How many hosts may run reducers. */
  int reducerHosts() {
    return reducerHosts;
  }

  /**
   * {@link #inSpeeds} of every host that may run reducers, worked out once for the hosts: where
   * slots are not limited, every placement round of every coflow asks for it, and would otherwise
   * sort the speeds of every such host each time.
   */
  double[] reducerSpeeds() {
    if (reducerSpeeds == null) {
      reducerSpeeds = inSpeeds(mayHostReducers);
    }
    return reducerSpeeds;
  }

  /** The distinct whole incoming bandwidths of the hosts marked, ascending. */
  double[] inSpeeds(boolean[] marked) {
    double[] speeds = new double[marked.length];
    int count = 0;
    for (int j = 0; j < marked.length; j++) {
      if (marked[j]) {
        speeds[count++] = inWhole[j];
      }
    }
    Arrays.sort(speeds, 0, count);
    int distinct = 0;
    for (int i = 0; i < count; i++) {
      if (distinct == 0 || Double.compare(speeds[i], speeds[distinct - 1]) != 0) {
        speeds[distinct++] = speeds[i];
      }
    }
    return Arrays.copyOf(speeds, distinct);
  }

  /** Slots left on the host for reducers that are not pinned yet: free now or freeing soon. */
  public int freeSlots(int host) {
    return freeSlots[host] == Integer.MAX_VALUE
        ? Integer.MAX_VALUE
        : freeSlots[host] + slotsFreeing[host].length - freeingTaken[host];
  }

  /** Slots left on the host that are free now. */
  public int freeSlotsNow(int host) {
    return freeSlots[host];
  }

  /** True when some slot left frees up later than now. */
  public boolean anySlotFreeingLater() {
    return anyFreeing;
  }

  /**
   * When slot {@code k} (from 0) of those left on the host frees up, taking the free ones first and
   * then the others as they free: {@link #now} for a free one, infinity past the last.
   */
  public double slotFree(int host, int k) {
    if (k < freeSlots[host]) {
      return now;
    }
    int i = freeingTaken[host] + k - freeSlots[host];
    return i < slotsFreeing[host].length
        ? Math.max(now, slotsFreeing[host][i])
        : Double.POSITIVE_INFINITY;
  }

  /** True when some host that may run reducers has a limit on them. */
  public boolean slotsLimited() {
    return slotsLimited;
  }

  /** The incoming bandwidth (whole, not what is free) of the fastest host that may run reducers. */
  public double fastestReducerHost() {
    return fastestReducerHost;
  }

  /**
   * The whole incoming bandwidth of the fastest host that may run reducers and has some of it free
   * now; -1 when there is none. Kept until a link loses bandwidth.
   */
  public double fastestReceiverFreeNow() {
    if (Double.isNaN(fastestFreeNow)) {
      fastestFreeNow = -1;
      for (int j = 0; j < in.length; j++) {
        if (mayHostReducers[j] && in[j].rateNow() > 0) {
          fastestFreeNow = Math.max(fastestFreeNow, inWhole[j]);
        }
      }
    }
    return fastestFreeNow;
  }

  /**
   * True until a link loses bandwidth in this invocation: the coflow planned now has every link at
   * its whole bandwidth, as if alone on the network.
   */
  public boolean idle() {
    return idle;
  }

  /**
   * The number of the current epoch: Algorithm 1 starts a new one after each coflow it serves, so
   * that a plan made in an earlier epoch can tell which links have lost bandwidth since (see {@link
   * PlanEvaluator#reevaluatePinned}).
   */
  public int epoch() {
    return epoch;
  }

  /** Starts the next epoch. */
  public void nextEpoch() {
    epoch++;
  }

  /**
   * True when the host's incoming link lost bandwidth in epoch {@code epoch} or later: until then,
   * the time it takes to carry given bytes is unchanged.
   */
  public boolean inChangedSince(int host, int epoch) {
    return changedIn[host] >= epoch;
  }

  /** As {@link #inChangedSince}, for the host's outgoing link. */
  public boolean outChangedSince(int host, int epoch) {
    return changedIn[in.length + host] >= epoch;
  }

  /** Link {@code slot} (see the constructor) lost bandwidth. */
  void changed(int slot) {
    changedIn[slot] = epoch;
    fastestFreeNow = Double.NaN;
    idle = false;
  }

  /** Takes one slot of the host for a newly placed reducer: a free one, else the next to free. */
  public void takeSlot(int host) {
    if (freeSlots[host] == Integer.MAX_VALUE) {
      return;
    }
    if (freeSlots[host] > 0) {
      freeSlots[host]--;
    } else if (freeingTaken[host] < slotsFreeing[host].length) {
      freeingTaken[host]++;
    }
  }
}
