/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import java.util.HashMap;
import java.util.Map;
import org.coflowshuffle.coordinator.protocol.Message;

/**
 * The rates a coordinator pushed for the flows an application asked about, for its fetchers to
 * read: a flow is asked once (again only when its reducer moves to another executor), and its
 * latest rate is kept until its reducer or shuffle is done. Thread-safe; a reader may wait briefly
 * for a flow's first rate.
 */
final class PushedRates {

  /** A flow: what reducer {@code reducer} of a shuffle reads from executor {@code source}. */
  record Flow(int shuffle, int reducer, String source) {}

  private final Map<Flow, String> asked = new HashMap<>();
  private final Map<Flow, Double> rates = new HashMap<>();
  private long epoch = -1;

  /**
   * Notes that {@code fetcher} asks about a flow.
   *
   * @return whether the coordinator must be asked (first time, or from another executor)
   */
  synchronized boolean ask(Flow flow, String fetcher) {
    return !fetcher.equals(asked.put(flow, fetcher));
  }

  /** The flow's latest rate (infinite: unpaced), or null when none came yet. */
  synchronized Double get(Flow flow) {
    return rates.get(flow);
  }

  /**
   * The flow's rate, waiting up to {@code millis} for the first one.
   *
   * @return null when none came in time
   */
  synchronized Double await(Flow flow, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    Double r;
    while ((r = rates.get(flow)) == null && asked.containsKey(flow)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return null;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return r;
  }

  /** Applies a push of the connection's decision number {@code epoch}; older pushes are ignored. */
  synchronized void accept(String app, Message.Rates push) {
    if (push.epoch() < epoch) {
      return;
    }
    epoch = push.epoch();
    for (Message.FlowRate f : push.rates()) {
      Flow flow = new Flow(f.shuffle(), f.reducer(), f.source());
      if (f.app().equals(app) && asked.containsKey(flow)) {
        rates.put(flow, f.bytesPerSecond() == null ? Double.POSITIVE_INFINITY : f.bytesPerSecond());
      }
    }
    notifyAll();
  }

  /** The reducer is done (reducer &ge; 0) or the whole shuffle (reducer &lt; 0). */
  synchronized void done(int shuffle, int reducer) {
    asked.keySet().removeIf(f -> f.shuffle() == shuffle && (reducer < 0 || f.reducer() == reducer));
    rates.keySet().removeIf(f -> f.shuffle() == shuffle && (reducer < 0 || f.reducer() == reducer));
  }

  /** The connection is gone: nothing known holds, and waiting readers give up. */
  synchronized void clear() {
    asked.clear();
    rates.clear();
    epoch = -1;
    notifyAll();
  }

  synchronized int size() {
    return rates.size();
  }
}
