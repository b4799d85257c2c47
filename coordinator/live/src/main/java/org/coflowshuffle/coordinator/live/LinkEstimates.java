/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The bandwidth each machine's links leave for shuffles where no setting gives it, measured from
 * what the transport achieves: the paper's site broker of available bandwidth (RPC, section IV-D).
 * Each link has a nominal speed, the most it can carry: its NIC's (only an upper bound: a link may
 * be shaped, shared with other traffic, or a virtual interface that reports 10 Gbit/s whatever it
 * carries), else {@link #UNKNOWN_LINK}. Its estimate starts there and follows what its flows
 * deliver.
 *
 * <p>Time is cut into windows of {@link #WINDOW_SECONDS}. In each, a link's planned bytes (the
 * rates of the decisions then, over their time) are set against the bytes its flows delivered, and
 * against what its interface carried in all where an executor on the machine counts it ({@link
 * #counted}; else the flows' bytes stand for it). A link that delivered clearly less than planned,
 * and fell shorter than every link at the other end of its flows (so that it, not they, held them
 * back: see {@link #limits}), {@link #HELD_TO_LOWER} windows in a row (one says little: a stage's
 * fetches start and end unevenly), may be limited below its estimate: the estimate drops to what
 * the link carried, but never below the most it carried in one of its last {@link #RECENT} windows
 * with flows (five minutes of them): fetches deliver less than planned for reasons of their own too
 * (a reduce task that has not asked for every block yet, a stage's last flows), and a link is not
 * taken for slower than it has shown it is. Other traffic is taken off apart (see below), so the
 * memory can be long; a shorter one let the light load at the end of a stage pull links down. A
 * link that delivered what a plan filling it asked, {@link #CARRIED_TO_PROBE} windows in a row, may
 * carry more, as may one its interface counted full of its estimate: for one window the plan gets
 * {@link #PROBE_GAIN} times the estimate. Whenever a link carried more than its estimate, the
 * estimate rises to that. A direction that has shown no speed of its own takes the one the other
 * direction of its NIC was measured at ({@link #mirror}). A link neither direction of whose NIC has
 * shown a speed, but that carried within {@link #SAME_SPEED} of a speed measured on another link
 * behind a NIC of the same nominal speed, is taken at that speed ({@link #priors}): links behind
 * NICs of one speed mostly carry alike.
 *
 * <p>What a link carried in a window is the most its interface counted over any {@link #PEAK_SPAN}
 * ending in it, not the window's mean: flows start and end within a window, so the mean of one a
 * shuffle half filled tells less of the link than its busiest stretch does. A stretch, and a
 * window's mean, count at most what the link carried in the second they end with: a shaper's token
 * bucket, full after the link idled, lets a burst through as a busy stretch starts (64 KB adds 13%
 * to two seconds of a 2 Mbit/s link); what the link sustains shows at the end.
 *
 * <p>What an interface carried beyond the flows' bytes and the acknowledgements of the flows the
 * other way ({@link #ACKS}) is other traffic (another application, a backup, the machine's storage
 * traffic): averaged over the last {@link #OTHER_WINDOWS} windows, it is taken off the estimate for
 * what the schemes plan, down to at least {@link #LEAST_LEFT} of the link.
 *
 * <p>Not thread-safe: {@link LiveCoordinator} guards it.
 */
final class LinkEstimates {

  static final double WINDOW_SECONDS = 2.0;

  /** Where neither a setting nor a NIC speed bounds a link: 10 Gbit/s, until measured. */
  static final double UNKNOWN_LINK = 1.25e9;

  static final double PROBE_GAIN = 1.2;
  static final int CARRIED_TO_PROBE = 2;

  /** Windows in a row a link must hold its flows back before its estimate drops. */
  static final int HELD_TO_LOWER = 2;

  /** Windows with flows whose busiest stretch bounds how low a link is taken. */
  static final int RECENT = 150;

  /** A link that carried within this factor of a speed measured behind its kind of NIC has it. */
  static final double SAME_SPEED = 0.9;

  /** Windows whose other traffic is averaged: steady traffic, not one window's report jitter. */
  static final int OTHER_WINDOWS = 3;

  /** The least share of a link left for shuffles, whatever other traffic seems to take. */
  static final double LEAST_LEFT = 0.1;

  /**
   * Share of the bytes an interface counts that is TCP payload, as the flows' bytes are: a full
   * segment carries 1448 bytes of data in 1514, and the acknowledgements take a little the other
   * way.
   */
  static final double PAYLOAD = 0.95;

  /**
   * Share of the payload a link's flows carry one way that their acknowledgements take the other
   * way, counted as {@link #PAYLOAD} counts: one frame of 66 bytes for every segment or two of 1448
   * (quick and delayed ACKs), with the fetch requests. A machine's own shuffle traffic, not other
   * traffic: taken off it, it would lower most the links a shuffle loads least one way and most the
   * other (a slow sender that also receives at a fast link's speed).
   */
  static final double ACKS = 0.05;

  /**
   * Seconds over which an interface's busiest stretch is measured: long enough that a shaper's
   * burst (tens of milliseconds of the link) adds little to it.
   */
  static final double PEAK_SPAN = 2.0;

  /** Interface counts closer than this are one count (several executors on one machine). */
  private static final double SAME_COUNT_SECONDS = 0.5;

  /** A gap between counts longer than this says nothing of a window. */
  private static final double STALE_COUNT_SECONDS = 10;

  /** Delivered under planned by more than this factor: the link, or the other end, limits. */
  private static final double SHORT = 1.15;

  /** Delivered within this factor of planned: the link carried its plan. */
  private static final double CARRIED = 1.05;

  static final int IN = 0;
  static final int OUT = 1;
  static final int LINK_IN = 2;
  static final int LINK_OUT = 3;

  /** One direction of one machine's link. */
  private static final class Link {
    double nominal = UNKNOWN_LINK;
    boolean stated; // the nominal speed is a setting's, not a NIC's or unknown
    double estimate = Double.NaN; // NaN until a window measured it: the prior or nominal speed
    double prior = Double.NaN; // a speed measured on a link of its kind (see priors), or NaN
    boolean mirrored; // the estimate is the other direction's (see mirror)
    boolean probing;
    int carried;
    int held; // windows in a row it fell short and held its flows back
    double plannedRate;
    double plannedBytes;
    double deliveredBytes;
    double countedBytes; // what the interface carried this window, payload
    double countedSeconds; // over how long (0: not counted)
    double peak; // the most it carried over a PEAK_SPAN ending this window, payload per second
    double tail; // what it carried between its last two counts, payload per second
    final double[] others = new double[OTHER_WINDOWS];
    int otherWindows;
    final Set<String> peers = new HashSet<>(); // machines at the other end this window

    /** Per machine at the other end: the rate planned now, bytes planned and delivered. */
    final Map<String, double[]> flows = new HashMap<>();

    double shortfall; // delivered over planned in the window just closed; NaN for none planned
    boolean full; // its interface counted it carrying about its estimate in that window
    final double[] recent = new double[RECENT];
    int windows;

    /** The most it carried in one of its last {@link #RECENT} windows with flows. */
    double best() {
      double best = 0;
      for (double r : recent) {
        best = Math.max(best, r);
      }
      return best;
    }

    /** A busy stretch ended: it counts at most what the link carried at its end. */
    void stretch(double carried) {
      peak = Math.max(peak, Math.min(carried, tail));
    }

    double estimate() {
      return !Double.isNaN(estimate) ? estimate : Double.isNaN(prior) ? nominal : prior;
    }

    /** Other traffic, bytes per second: the mean of the last windows that counted it. */
    double other() {
      int n = Math.min(otherWindows, OTHER_WINDOWS);
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += others[i];
      }
      return n == 0 ? 0 : sum / n;
    }

    /** The estimate less other traffic. */
    double left() {
      return leftOf(estimate());
    }

    double effective() {
      return leftOf(probing ? Math.min(nominal, estimate() * PROBE_GAIN) : estimate());
    }

    private double leftOf(double link) {
      return Math.max(LEAST_LEFT * link, link - other());
    }
  }

  /**
   * A machine's last interface counts, oldest first, over about two {@link #PEAK_SPAN}s: when
   * (seconds), bytes received, bytes sent.
   */
  private final Map<String, ArrayDeque<double[]>> counts = new TreeMap<>();

  private final Map<String, Link[]> links = new TreeMap<>();
  private double windowStart = Double.NaN;
  private double plannedSince = Double.NaN;

  private Link[] of(String machine) {
    return links.computeIfAbsent(machine, m -> new Link[] {new Link(), new Link()});
  }

  /**
   * The most a machine's links carry, bytes per second each way, as a setting says. Ignored unless
   * positive and finite (the machine's links are known from then on).
   */
  void nominal(String machine, double bytesPerSecond) {
    upTo(machine, bytesPerSecond, true);
  }

  /**
   * The speed of a machine's NIC, bytes per second: the most its links carry, but no sign of what
   * they do (a shaped or virtual link reports its nominal speed). Ignored unless positive and
   * finite.
   */
  void nicSpeed(String machine, double bytesPerSecond) {
    upTo(machine, bytesPerSecond, false);
  }

  private void upTo(String machine, double bytesPerSecond, boolean stated) {
    Link[] pair = of(machine);
    if (bytesPerSecond > 0 && !Double.isInfinite(bytesPerSecond)) {
      for (Link l : pair) {
        l.nominal = bytesPerSecond;
        l.stated = stated;
        l.prior = Double.NaN; // the next window's, from links of this speed
        if (l.estimate > bytesPerSecond) {
          l.estimate = bytesPerSecond;
        }
      }
    }
  }

  /** Whether the machine has links here (a nominal speed was given, or it carried flows). */
  boolean known(String machine) {
    return links.containsKey(machine);
  }

  /**
   * Bytes per second the schemes may plan through a machine's link ({@link #IN} or {@link #OUT}).
   */
  double effective(String machine, int direction) {
    Link[] l = links.get(machine);
    return l == null ? UNKNOWN_LINK : l[direction].effective();
  }

  /**
   * The rates of a new decision through each machine's links, bytes per second in and out; links
   * not named carry none.
   */
  void planned(double now, Map<String, double[]> rates) {
    planned(now, rates, Map.of());
  }

  /**
   * The rates of a new decision through each machine's links, bytes per second in and out, and
   * between machines ({@code between.get(from).get(to)}); links not named carry none.
   */
  void planned(double now, Map<String, double[]> rates, Map<String, Map<String, Double>> between) {
    if (Double.isNaN(windowStart)) {
      windowStart = now; // the first window starts with the first plan
    }
    accrue(now);
    for (Link[] pair : links.values()) {
      for (Link l : pair) {
        l.plannedRate = 0;
        l.flows.values().forEach(f -> f[0] = 0);
      }
    }
    rates.forEach(
        (machine, r) -> {
          Link[] l = of(machine);
          l[IN].plannedRate = r[IN];
          l[OUT].plannedRate = r[OUT];
        });
    between.forEach(
        (from, to) ->
            to.forEach(
                (machine, rate) -> {
                  flow(of(from)[OUT], machine)[0] = rate;
                  flow(of(machine)[IN], from)[0] = rate;
                }));
  }

  private static double[] flow(Link l, String peer) {
    return l.flows.computeIfAbsent(peer, p -> new double[3]);
  }

  /** A flow from machine {@code from} to machine {@code to} delivered {@code bytes}. */
  void delivered(String from, String to, double bytes) {
    Link out = of(from)[OUT];
    Link in = of(to)[IN];
    out.deliveredBytes += bytes;
    in.deliveredBytes += bytes;
    out.peers.add(to);
    in.peers.add(from);
    flow(out, to)[2] += bytes;
    flow(in, from)[2] += bytes;
  }

  /**
   * What the interface of a machine's link has carried since it came up, as an executor there read
   * its counters at {@code seconds} (the machine's clock): the bytes since the count before go to
   * the window open now. A count within half a second of the last one taken is the same count from
   * another executor on the machine, and left out.
   *
   * @return whether an estimate the schemes plan with changed (see {@link #tick})
   */
  boolean counted(String machine, double seconds, double received, double sent, double now) {
    ArrayDeque<double[]> history = counts.computeIfAbsent(machine, m -> new ArrayDeque<>());
    double[] last = history.peekLast();
    if (last != null && seconds < last[0] + SAME_COUNT_SECONDS) {
      return tick(now);
    }
    if (last != null
        && seconds - last[0] <= STALE_COUNT_SECONDS
        && received >= last[1]
        && sent >= last[2]) {
      Link[] pair = of(machine);
      pair[IN].countedBytes += (received - last[1]) * PAYLOAD;
      pair[OUT].countedBytes += (sent - last[2]) * PAYLOAD;
      pair[IN].countedSeconds += seconds - last[0];
      pair[OUT].countedSeconds += seconds - last[0];
      pair[IN].tail = (received - last[1]) * PAYLOAD / (seconds - last[0]);
      pair[OUT].tail = (sent - last[2]) * PAYLOAD / (seconds - last[0]);
      for (Iterator<double[]> older = history.descendingIterator(); older.hasNext(); ) {
        double[] o = older.next();
        double span = seconds - o[0];
        if (span >= PEAK_SPAN) {
          if (span <= 1.5 * PEAK_SPAN) { // counts further apart say nothing of a busy stretch
            pair[IN].stretch((received - o[1]) * PAYLOAD / span);
            pair[OUT].stretch((sent - o[2]) * PAYLOAD / span);
          }
          break;
        }
      }
    } else {
      history.clear(); // the first count, one after a gap, or counters that restarted
    }
    history.addLast(new double[] {seconds, received, sent});
    while (seconds - history.peekFirst()[0] > 2 * PEAK_SPAN) {
      history.removeFirst();
    }
    return tick(now);
  }

  /**
   * Closes the window if its time is up, and measures every link in it.
   *
   * @return whether an estimate the schemes plan with changed
   */
  boolean tick(double now) {
    if (Double.isNaN(windowStart)) {
      windowStart = now;
      plannedSince = now;
      return false;
    }
    double length = now - windowStart;
    if (length < WINDOW_SECONDS) {
      return false;
    }
    accrue(now);
    for (Link[] pair : links.values()) {
      for (Link l : pair) {
        l.shortfall = l.plannedBytes > 0 ? l.deliveredBytes / l.plannedBytes : Double.NaN;
        l.full = l.countedSeconds > 0 && l.countedBytes / l.countedSeconds * SHORT >= l.estimate();
      }
    }
    Map<Link, Double> before = new HashMap<>();
    for (Map.Entry<String, Link[]> machine : links.entrySet()) {
      Link[] pair = machine.getValue();
      before.put(pair[IN], pair[IN].effective());
      before.put(pair[OUT], pair[OUT].effective());
      for (int d = IN; d <= OUT; d++) {
        Link l = pair[d];
        double delivered = l.deliveredBytes / length;
        double carried = delivered;
        if (l.countedSeconds > 0) {
          carried = l.countedBytes / l.countedSeconds;
          double acks = ACKS * pair[1 - d].deliveredBytes / length;
          l.others[l.otherWindows++ % OTHER_WINDOWS] = Math.max(0, carried - delivered - acks);
        }
        double shown = Math.max(l.countedSeconds > 0 ? Math.min(carried, l.tail) : carried, l.peak);
        measure(l, l.plannedBytes / length, delivered, shown, limits(l, machine.getKey(), 1 - d));
      }
      mirror(pair[IN], pair[OUT]);
      mirror(pair[OUT], pair[IN]);
    }
    priors();
    boolean changed = false;
    for (Map.Entry<Link, Double> b : before.entrySet()) {
      changed |= b.getKey().effective() != b.getValue();
    }
    for (Link[] pair : links.values()) { // a new window, once every link was judged on the last
      for (Link l : pair) {
        l.plannedBytes = 0;
        l.deliveredBytes = 0;
        l.countedBytes = 0;
        l.countedSeconds = 0;
        l.peak = 0;
        l.peers.clear();
        l.flows.values().removeIf(f -> f[0] == 0); // no longer planned
        l.flows.values().forEach(f -> f[1] = f[2] = 0);
      }
    }
    windowStart = now;
    return changed;
  }

  /**
   * A NIC carries one speed both ways (full duplex): a direction of a link whose nominal speed is
   * no setting's, and that has not shown a speed of its own, takes the speed the other direction
   * was measured at, where that is lower. Without it, the direction a shuffle never fills (the
   * links into a slow host that rpc places no reducer on) would stay at the NIC's nominal speed,
   * and the next shuffle would be placed onto it as onto a fast link. It rises as soon as it
   * carries more (a direction with other traffic of its own, or an asymmetric link).
   */
  private static void mirror(Link measured, Link other) {
    if (!Double.isNaN(measured.estimate)
        && !measured.mirrored
        && !other.stated
        && (Double.isNaN(other.estimate) || other.mirrored)
        && measured.estimate < other.nominal) {
      other.estimate = measured.estimate;
      other.mirrored = true;
    }
  }

  /**
   * Gives every link that has shown no speed of its own, and whose speed no setting states, the
   * speed measured on another link behind a NIC of the same nominal speed that its own busiest
   * stretch came within {@link #SAME_SPEED} of (the nearest, and never below what it carried;
   * mirrored estimates are not counted: they measured the other direction). Without it, a link
   * whose flows were held back at their other ends as much as by itself (a fast host's link while
   * its receivers bind) would stay at its NIC's nominal speed (10 Gbit/s for a veth) after a
   * shuffle loaded it to its rate, and the next shuffle would be placed onto it as onto the fastest
   * link there is. A link that carried clearly less than every measured speed keeps its nominal
   * one: that it could carry more is not known.
   */
  private void priors() {
    Map<Double, List<Double>> measured = new HashMap<>();
    for (Link[] pair : links.values()) {
      for (Link l : pair) {
        if (!l.stated && !l.mirrored && !Double.isNaN(l.estimate)) {
          measured.computeIfAbsent(l.nominal, n -> new ArrayList<>()).add(l.estimate);
        }
      }
    }
    for (Link[] pair : links.values()) {
      for (Link l : pair) {
        l.prior = Double.NaN;
        if (l.stated) {
          continue;
        }
        double best = l.best();
        double nearest = Double.NaN;
        for (double e : measured.getOrDefault(l.nominal, List.of())) {
          boolean near = e * SAME_SPEED <= best && best * SAME_SPEED <= e;
          if (near && (Double.isNaN(nearest) || Math.abs(e - best) < Math.abs(nearest - best))) {
            nearest = e;
          }
        }
        l.prior = Math.max(nearest, best); // NaN stays NaN
      }
    }
  }

  /**
   * Whether the link of {@code machine} fell shorter of its plan than every link at the other end
   * of its flows (those in direction {@code peerDirection}), so that it held them back. Not where
   * one of those fell about as short (within {@link #SHORT}) and gathers more flows (flows from
   * elsewhere through it fell short alike: it explains them all). Nor where one of those fell about
   * as short, or was full while this one was not, and has other flows that fell short alike: it
   * slowed all its flows, and flows both ends of which are still at a NIC's nominal speed fall
   * short alike of plans that speed allows. Where that one's flow through this link came clearly
   * further below its plan than its other flows, or it has no others, this link may have held it.
   */
  private boolean limits(Link l, String machine, int peerDirection) {
    for (String peer : l.peers) {
      Link p = of(peer)[peerDirection];
      boolean asShort = p.shortfall < l.shortfall * SHORT;
      if (p.shortfall < l.shortfall
          || asShort && p.peers.size() > l.peers.size()
          || (asShort || p.full && !l.full) && p.peers.size() > 1 && !heldBackMore(p, machine)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether link {@code p}'s flow with {@code machine} fell clearly shorter of its plan than its
   * other flows did; false where either was not planned.
   */
  private static boolean heldBackMore(Link p, String machine) {
    double[] f = p.flows.get(machine);
    double otherPlanned = p.plannedBytes - (f == null ? 0 : f[1]);
    if (f == null || f[1] <= 0 || otherPlanned <= 0) {
      return false;
    }
    return f[2] / f[1] * SHORT < (p.deliveredBytes - f[2]) / otherPlanned;
  }

  private void accrue(double now) {
    if (!Double.isNaN(plannedSince) && now > plannedSince) {
      double dt = now - plannedSince;
      for (Link[] pair : links.values()) {
        for (Link l : pair) {
          l.plannedBytes += l.plannedRate * dt;
          l.flows.values().forEach(f -> f[1] += f[0] * dt);
        }
      }
    }
    plannedSince = now;
  }

  /**
   * One window of a link: its flows were planned {@code planned} and delivered {@code delivered}
   * bytes per second; the link carried {@code carried} in all (other traffic with them) in its
   * busiest stretch.
   */
  private static void measure(
      Link l, double planned, double delivered, double carried, boolean limits) {
    boolean held = false;
    if (planned <= 0 && delivered <= 0) {
      l.probing = false;
      l.carried = 0;
    } else {
      l.recent[l.windows++ % RECENT] = carried;
      double best = l.best();
      double estimate = l.estimate();
      if (l.probing) {
        l.probing = false;
        l.carried = 0;
      } else if (delivered * SHORT < planned) {
        l.carried = 0;
        held = limits && delivered > 0; // nothing delivered shows no speed
        if (held && l.held + 1 >= HELD_TO_LOWER && best < estimate) {
          l.estimate = Math.max(best, carried);
          l.mirrored = false;
        }
      } else if (l.full || delivered * CARRIED >= planned && planned >= 0.9 * l.left()) {
        if (++l.carried >= CARRIED_TO_PROBE && estimate < l.nominal) {
          l.probing = true;
        }
      } else {
        l.carried = 0;
      }
      double shown = Double.isNaN(l.estimate) ? l.prior : l.estimate; // NaN: only a nominal speed
      if (carried > shown) { // false while NaN: a nominal speed is not raised
        l.estimate = Math.min(l.nominal, carried); // it carried more than thought
        l.mirrored = false;
      }
    }
    l.held = held ? l.held + 1 : 0;
  }

  /**
   * Per machine, the bandwidth each way its links have shown they carry, or their nominal speed
   * where not measured below it, less the other traffic they carry: what they leave for shuffles,
   * bytes per second in and out (at {@link #IN} and {@link #OUT}); then the links themselves, other
   * traffic included (at {@link #LINK_IN} and {@link #LINK_OUT}).
   */
  Map<String, double[]> estimates() {
    Map<String, double[]> out = new TreeMap<>();
    links.forEach(
        (m, l) ->
            out.put(
                m,
                new double[] {l[IN].left(), l[OUT].left(), l[IN].estimate(), l[OUT].estimate()}));
    return out;
  }
}
