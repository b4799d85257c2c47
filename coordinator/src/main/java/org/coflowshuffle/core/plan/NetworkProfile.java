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
  private boolean slotsLimited; // some host that may run reducers has a slot limit
  private double fastestReducerHost; // the most incoming bandwidth of a host that may run reducers
  private double fastestFreeNow = Double.NaN; // see fastestReceiverFreeNow; NaN: not known
  private int epoch;
  private final int[] changedIn; // per link (in links, then out links): the epoch it last changed
  // Per host, its links' whole bandwidths: a reset reads these arrays, not 2,000 host fields.
  private final double[] inWhole;
  private final double[] outWhole;
  private final boolean[] mayHostReducers;
  private final int reducerHosts;
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
    int reducerHosts = 0;
    for (int j = 0; j < m; j++) {
      inWhole[j] = hosts.get(j).inBytesPerSec();
      outWhole[j] = hosts.get(j).outBytesPerSec();
      mayHostReducers[j] = hosts.get(j).canHostReducers();
      reducerHosts += mayHostReducers[j] ? 1 : 0;
      in[j] = new LinkProfile(now, inWhole[j], this, j);
      out[j] = new LinkProfile(now, outWhole[j], this, m + j);
    }
    this.reducerHosts = reducerHosts;
    freeSlots = new int[m];
    freeingTaken = new int[m];
    changedIn = new int[2 * m];
    start(now, slotsInUse, slotsFreeing);
  }

  /**
   * Makes this profile again, for the same hosts, as {@link #NetworkProfile(double, List, int[],
   * double[][])} would make it at {@code now}: its links keep their arrays, and nothing else of the
   * last invocation is kept. Building 2,000 links afresh was 7% of a decision in {@code bench
   * decision}'s Fig. 9 row (500 + 500 hosts, a profile).
   */
  public void reset(double now, int[] slotsInUse, double[][] slotsFreeing) {
    for (int j = 0; j < in.length; j++) {
      in[j].reset(now, inWhole[j]);
      out[j].reset(now, outWhole[j]);
    }
    Arrays.fill(freeingTaken, 0);
    start(now, slotsInUse, slotsFreeing);
  }

  /** Sets what the links do not hold: the time, the slots and the figures kept from them. */
  private void start(double now, int[] slotsInUse, double[][] slotsFreeing) {
    this.now = now;
    int m = in.length;
    if (slotsFreeing == null) { // none freeing: one empty array for every host
      slotsFreeing = new double[m][];
      Arrays.fill(slotsFreeing, new double[0]);
    }
    this.slotsFreeing = slotsFreeing;
    Arrays.fill(changedIn, -1);
    epoch = 0;
    anyFreeing = false;
    slotsLimited = false;
    fastestReducerHost = 0;
    fastestFreeNow = Double.NaN;
    for (int j = 0; j < m; j++) {
      Host h = hosts.get(j);
      freeSlots[j] = h.freeSlots(slotsInUse[j]);
      anyFreeing |= freeSlots[j] != Integer.MAX_VALUE && this.slotsFreeing[j].length > 0;
      if (h.canHostReducers()) {
        slotsLimited |= freeSlots[j] != Integer.MAX_VALUE;
        fastestReducerHost = Math.max(fastestReducerHost, h.inBytesPerSec());
      }
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
   * slots are not limited, every placement round of every coflow asks for it, and sorting 500
   * speeds each time was 5% of placing a coflow in {@code bench decision}'s Fig. 9 row.
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
        if (hosts.get(j).canHostReducers() && in[j].rateNow() > 0) {
          fastestFreeNow = Math.max(fastestFreeNow, hosts.get(j).inBytesPerSec());
        }
      }
    }
    return fastestFreeNow;
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
