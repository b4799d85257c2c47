/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import java.util.Arrays;

/**
 * The bandwidth of one link still free for a coflow over time, from "now" on: a step function that
 * starts at the link's free rate and changes at break points. Algorithm 1 hands bandwidth to
 * coflows one at a time (line 15, "update B"); a profile is that B, with the times at which the
 * coflows already served release it, so that a later coflow can plan on bandwidth that frees up
 * (section IV-C's two extreme cases are its two ends).
 *
 * <p>Mutable, confined to one policy invocation.
 */
public final class LinkProfile {

  private double[] times; // times[0] = now; segment i spans [times[i], times[i+1]) or to infinity
  private double[] rates;
  private int size;
  private double[] carried; // bytes carried by times[i], summed in order; null after a change

  private final NetworkProfile owner; // null for a link on its own
  private final int slot; // its number in the owner

  /** A link whose whole {@code rate} is free from {@code now} on. */
  public LinkProfile(double now, double rate) {
    this(now, rate, null, -1);
  }

  /** Link number {@code slot} of {@code owner}, which it tells when it loses bandwidth. */
  LinkProfile(double now, double rate, NetworkProfile owner, int slot) {
    times = new double[] {now, 0, 0, 0};
    rates = new double[] {rate, 0, 0, 0};
    size = 1;
    this.owner = owner;
    this.slot = slot;
  }

  /** The whole {@code rate} free from {@code now} on again, as a new link; the arrays are kept. */
  void reset(double now, double rate) {
    times[0] = now;
    rates[0] = rate;
    size = 1;
    carried = null;
  }

  private void changed() {
    carried = null;
    if (owner != null) {
      owner.changed(slot);
    }
  }

  /** True while the free rate is the same from now on (no break points). */
  public boolean isConstant() {
    return size == 1;
  }

  /** Free rate at the start of the profile ("now"). */
  public double rateNow() {
    return rates[0];
  }

  /** The highest free rate at any time from now on. */
  public double fastestRate() {
    double most = 0;
    for (int i = 0; i < size; i++) {
      most = Math.max(most, rates[i]);
    }
    return most;
  }

  /** Free rate from the last break point on. */
  public double finalRate() {
    return rates[size - 1];
  }

  /**
   * Bytes the link can carry from now until {@code t}: the whole segments before {@code t} (summed
   * once per change of the profile, in order, so the result is the same to the last bit as a
   * running sum) and the part of the segment that holds it.
   */
  public double bytesBy(double t) {
    if (!(times[0] < t)) {
      return 0;
    }
    if (size == 1) { // as below, with nothing carried before the one segment
      return rates[0] * (t - times[0]);
    }
    if (carried == null) {
      carried = new double[size];
      for (int i = 1; i < size; i++) {
        carried[i] = carried[i - 1] + rates[i - 1] * (times[i] - times[i - 1]);
      }
    }
    int i = Arrays.binarySearch(times, 0, size, t); // the last segment starting before t
    i = i >= 0 ? i - 1 : -i - 2;
    return carried[i] + rates[i] * (t - times[i]);
  }

  /** Earliest time by which the link can carry {@code bytes}; infinity if it never can. */
  public double timeToCarry(double bytes) {
    if (bytes <= 0) {
      return times[0];
    }
    double left = bytes;
    for (int i = 0; i < size; i++) {
      boolean last = i + 1 == size;
      double span = last ? Double.POSITIVE_INFINITY : times[i + 1] - times[i];
      double cap = rates[i] * span;
      if (cap >= left) {
        return rates[i] > 0 ? times[i] + left / rates[i] : times[i];
      }
      left -= cap;
    }
    return Double.POSITIVE_INFINITY;
  }

  /**
   * Takes all free bandwidth from now until {@code bytes} have been carried, the way a coflow that
   * sends as fast as the link allows uses it. Returns the time it is done (infinity if never).
   */
  public double consume(double bytes) {
    double done = timeToCarry(bytes);
    if (bytes <= 0) {
      return done;
    }
    changed();
    if (done == Double.POSITIVE_INFINITY) {
      Arrays.fill(rates, 0, size, 0.0);
      return done;
    }
    // Segments wholly before `done` become 0; the one containing `done` is split.
    int i = 0;
    while (i + 1 < size && times[i + 1] <= done) {
      i++;
    }
    double rateAfter = rates[i];
    // Keep [times[0], done) at 0 and the rest unchanged, in place (the copies may overlap).
    int keepFrom = i + 1;
    int newSize = 2 + (size - keepFrom);
    if (newSize > times.length) {
      times = Arrays.copyOf(times, newSize);
      rates = Arrays.copyOf(rates, newSize);
    }
    System.arraycopy(times, keepFrom, times, 2, size - keepFrom);
    System.arraycopy(rates, keepFrom, rates, 2, size - keepFrom);
    rates[0] = 0;
    times[1] = done;
    rates[1] = rateAfter;
    size = newSize;
    if (done == times[0]) { // nothing consumed at all: drop the empty first segment
      System.arraycopy(times, 1, times, 0, size - 1);
      System.arraycopy(rates, 1, rates, 0, size - 1);
      size--;
    }
    return done;
  }

  /**
   * Takes {@code rate} (capped to what is free) during {@code [from, to)}: for a flow that holds a
   * fixed rate, as a coflow that waits for its turn does.
   */
  public void reserve(double from, double to, double rate) {
    if (!(to > from) || rate <= 0) {
      return;
    }
    changed();
    split(from);
    split(to);
    for (int i = 0; i < size; i++) {
      double end = i + 1 < size ? times[i + 1] : Double.POSITIVE_INFINITY;
      if (times[i] >= from && end <= to) {
        rates[i] = Math.max(0, rates[i] - rate);
      }
    }
  }

  private void split(double t) {
    if (t <= times[0] || t == Double.POSITIVE_INFINITY) {
      return;
    }
    int i = 0;
    while (i + 1 < size && times[i + 1] <= t) {
      i++;
    }
    if (times[i] == t) {
      return;
    }
    if (size == times.length) {
      times = Arrays.copyOf(times, size * 2);
      rates = Arrays.copyOf(rates, size * 2);
    }
    System.arraycopy(times, i + 1, times, i + 2, size - i - 1);
    System.arraycopy(rates, i + 1, rates, i + 2, size - i - 1);
    times[i + 1] = t;
    rates[i + 1] = rates[i];
    size++;
  }

  /** Takes {@code rate} of the bandwidth free now, for the rest of this invocation only. */
  public void takeNow(double rate) {
    changed();
    rates[0] = Math.max(0, rates[0] - rate);
  }
}
