/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.HashSet;
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
 * rates of the decisions then, over their time) are set against the bytes its flows delivered. A
 * link that delivered clearly less than planned, and fell shorter than every link at the other end
 * of its flows (so that it, not they, held them back), may be limited below its estimate: the
 * estimate drops at least by half, to twice what it delivered when that is less, but never below
 * the most the link delivered in a window of the last {@link #RECENT} (a minute): fetches deliver
 * less than planned for reasons of their own too (a reduce task that has not asked for every block
 * yet), and a link is not taken for slower than it has shown it is. A link that delivered what a
 * plan filling its estimate asked, {@link #CARRIED_TO_PROBE} windows in a row, may carry more: for
 * one window the plan gets {@link #PROBE_GAIN} times the estimate, which rises to what was
 * delivered if that was more.
 *
 * <p>Not thread-safe: {@link LiveCoordinator} guards it.
 */
final class LinkEstimates {

  static final double WINDOW_SECONDS = 2.0;

  /** Where neither a setting nor a NIC speed bounds a link: 10 Gbit/s, until measured. */
  static final double UNKNOWN_LINK = 1.25e9;

  static final double PROBE_GAIN = 1.2;
  static final int CARRIED_TO_PROBE = 2;
  static final int RECENT = 30;

  /** Delivered under planned by more than this factor: the link, or the other end, limits. */
  private static final double SHORT = 1.15;

  /** Delivered within this factor of planned: the link carried its plan. */
  private static final double CARRIED = 1.05;

  static final int IN = 0;
  static final int OUT = 1;

  /** One direction of one machine's link. */
  private static final class Link {
    double nominal = UNKNOWN_LINK;
    double estimate = Double.NaN; // NaN until a window measured it: the nominal speed holds
    boolean probing;
    int carried;
    double plannedRate;
    double plannedBytes;
    double deliveredBytes;
    final Set<String> peers = new HashSet<>(); // machines at the other end this window
    double shortfall; // delivered over planned in the window just closed; NaN for none planned
    final double[] recent = new double[RECENT];
    int windows;

    double estimate() {
      return Double.isNaN(estimate) ? nominal : estimate;
    }

    double effective() {
      return probing ? Math.min(nominal, estimate() * PROBE_GAIN) : estimate();
    }
  }

  private final Map<String, Link[]> links = new TreeMap<>();
  private double windowStart = Double.NaN;
  private double plannedSince = Double.NaN;

  private Link[] of(String machine) {
    return links.computeIfAbsent(machine, m -> new Link[] {new Link(), new Link()});
  }

  /**
   * The most a machine's links carry, bytes per second each way: a setting, or its NIC's speed.
   * Ignored unless positive and finite (the machine's links are known from then on).
   */
  void nominal(String machine, double bytesPerSecond) {
    Link[] pair = of(machine);
    if (bytesPerSecond > 0 && !Double.isInfinite(bytesPerSecond)) {
      for (Link l : pair) {
        l.nominal = bytesPerSecond;
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
    if (Double.isNaN(windowStart)) {
      windowStart = now; // the first window starts with the first plan
    }
    accrue(now);
    links.values().forEach(l -> l[IN].plannedRate = l[OUT].plannedRate = 0);
    rates.forEach(
        (machine, r) -> {
          Link[] l = of(machine);
          l[IN].plannedRate = r[IN];
          l[OUT].plannedRate = r[OUT];
        });
  }

  /** A flow from machine {@code from} to machine {@code to} delivered {@code bytes}. */
  void delivered(String from, String to, double bytes) {
    Link out = of(from)[OUT];
    Link in = of(to)[IN];
    out.deliveredBytes += bytes;
    in.deliveredBytes += bytes;
    out.peers.add(to);
    in.peers.add(from);
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
      }
    }
    boolean changed = false;
    for (Link[] pair : links.values()) {
      for (int d = IN; d <= OUT; d++) {
        Link l = pair[d];
        double before = l.effective();
        measure(l, l.plannedBytes / length, l.deliveredBytes / length, limits(l, 1 - d));
        l.plannedBytes = 0;
        l.deliveredBytes = 0;
        l.peers.clear();
        changed |= l.effective() != before;
      }
    }
    windowStart = now;
    return changed;
  }

  /**
   * Whether a link fell shorter of its plan than every link at the other end of its flows (those in
   * direction {@code peerDirection}), so that it held them back.
   */
  private boolean limits(Link l, int peerDirection) {
    for (String peer : l.peers) {
      double s = of(peer)[peerDirection].shortfall;
      if (s < l.shortfall) {
        return false;
      }
    }
    return true;
  }

  private void accrue(double now) {
    if (!Double.isNaN(plannedSince) && now > plannedSince) {
      double dt = now - plannedSince;
      for (Link[] pair : links.values()) {
        pair[IN].plannedBytes += pair[IN].plannedRate * dt;
        pair[OUT].plannedBytes += pair[OUT].plannedRate * dt;
      }
    }
    plannedSince = now;
  }

  private static void measure(Link l, double planned, double delivered, boolean limits) {
    if (planned <= 0 && delivered <= 0) {
      l.probing = false;
      l.carried = 0;
      return;
    }
    l.recent[l.windows++ % RECENT] = delivered;
    double best = 0;
    for (double r : l.recent) {
      best = Math.max(best, r);
    }
    double estimate = l.estimate();
    if (l.probing) {
      l.probing = false;
      l.carried = 0;
      if (delivered > estimate) {
        l.estimate = Math.min(l.nominal, delivered); // it carried more than thought
      }
    } else if (delivered * SHORT < planned) {
      l.carried = 0;
      if (limits && delivered > 0 && best < estimate) { // nothing delivered shows no speed
        l.estimate = Math.max(best, Math.min(estimate / 2, 2 * delivered));
      }
    } else if (delivered * CARRIED >= planned && planned >= 0.9 * estimate) {
      if (++l.carried >= CARRIED_TO_PROBE && estimate < l.nominal) {
        l.probing = true;
      }
    } else {
      l.carried = 0;
    }
  }

  /**
   * Per machine, the bandwidth each way (in, out) its links have shown they carry, or their nominal
   * speed where not measured below it, bytes per second.
   */
  Map<String, double[]> estimates() {
    Map<String, double[]> out = new TreeMap<>();
    links.forEach((m, l) -> out.put(m, new double[] {l[IN].estimate(), l[OUT].estimate()}));
    return out;
  }
}
