/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.Test;

class HeldRatesTest {

  private static Message.FlowRate rate(int reducer, double bytesPerSecond) {
    return new Message.FlowRate("application_1_0001", 3, reducer, "17", bytesPerSecond);
  }

  @Test
  void keepsTheLatestRatePerFlowWhateverTheDecisionsMeanwhile() {
    HeldRates held = new HeldRates();
    for (int decision = 1; decision <= 1000; decision++) {
      held.add(new Message.Rates(decision, List.of(rate(0, decision), rate(1, 2 * decision))));
    }
    assertEquals(2, held.size(), "two flows, however many pushes");
    Message.Rates r = held.next();
    assertEquals(1000, r.epoch());
    assertEquals(List.of(rate(0, 1000), rate(1, 2000)), r.rates());
    assertNull(held.next());
    assertTrue(held.isEmpty());
  }

  @Test
  void splitsAPushOfManyFlowsIntoFramesUnderTheClientsLimit() {
    HeldRates held = new HeldRates();
    List<Message.FlowRate> many = new ArrayList<>();
    for (int r = 0; r < 5000; r++) {
      many.add(rate(r, r));
    }
    held.add(new Message.Rates(7, many));
    List<Message.FlowRate> sent = new ArrayList<>();
    for (Message.Rates frame = held.next(); frame != null; frame = held.next()) {
      assertTrue(frame.rates().size() <= HeldRates.RATES_PER_FRAME);
      assertTrue(FrameCodec.encode(frame).length < (1 << 20), "fits a client's frame limit");
      sent.addAll(frame.rates());
    }
    assertEquals(many, sent, "every flow once, in order");
  }
}
