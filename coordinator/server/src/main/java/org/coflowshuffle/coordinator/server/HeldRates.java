/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.coordinator.protocol.Message;

/**
 * Rate pushes a client has not been sent yet: only the latest rate per flow is kept, so what waits
 * for a client that does not read is bounded by its flows, not by the decisions made meanwhile; and
 * they leave in frames of at most {@link #RATES_PER_FRAME}, each well under a client's 1 MiB frame
 * limit. Not thread-safe: its connection's event loop owns it.
 */
final class HeldRates {

  /** Most flow rates in one frame. */
  static final int RATES_PER_FRAME = 2048;

  private record FlowKey(String app, int shuffle, int reducer, String source) {}

  private final Map<FlowKey, Message.FlowRate> rates = new LinkedHashMap<>();
  private long epoch;

  /** Adds a push; its rates replace those held for the same flows. */
  void add(Message.Rates push) {
    for (Message.FlowRate f : push.rates()) {
      rates.put(new FlowKey(f.app(), f.shuffle(), f.reducer(), f.source()), f);
    }
    epoch = push.epoch();
  }

  boolean isEmpty() {
    return rates.isEmpty();
  }

  /** Flows held now. */
  int size() {
    return rates.size();
  }

  /**
   * Takes the next frame's worth, oldest flows first, under the latest push's epoch; null when
   * nothing is held.
   */
  Message.Rates next() {
    if (rates.isEmpty()) {
      return null;
    }
    List<Message.FlowRate> frame = new ArrayList<>(Math.min(RATES_PER_FRAME, rates.size()));
    for (Iterator<Message.FlowRate> it = rates.values().iterator();
        it.hasNext() && frame.size() < RATES_PER_FRAME; ) {
      frame.add(it.next());
      it.remove();
    }
    return new Message.Rates(epoch, frame);
  }
}
