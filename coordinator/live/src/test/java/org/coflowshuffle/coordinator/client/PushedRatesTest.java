/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.Test;

class PushedRatesTest {

  private final PushedRates rates = new PushedRates();
  private final PushedRates.Flow flow = new PushedRates.Flow(3, 1, "7");

  private static Message.Rates push(long epoch, String app, Double rate) {
    return new Message.Rates(epoch, List.of(new Message.FlowRate(app, 3, 1, "7", rate)));
  }

  @Test
  void aFlowIsAskedOnceUnlessItsReducerMoves() {
    assertTrue(rates.ask(flow, "2"));
    assertFalse(rates.ask(flow, "2"));
    assertTrue(rates.ask(flow, "5"), "the reducer runs elsewhere now");
  }

  @Test
  void onlyAskedFlowsOfThisApplicationAreKeptAndOlderPushesLose() throws Exception {
    rates.accept("app", push(1, "app", 5e6));
    assertNull(rates.get(flow), "not asked");
    rates.ask(flow, "2");
    rates.accept("app", push(2, "other", 1.0));
    assertNull(rates.get(flow), "another application's flow");
    rates.accept("app", push(4, "app", 5e6));
    rates.accept("app", push(3, "app", 1.0));
    assertEquals(5e6, rates.get(flow), "epoch 3 came after 4");
    rates.accept("app", push(5, "app", null));
    assertEquals(Double.POSITIVE_INFINITY, rates.await(flow, 10), "null: unpaced");
  }

  @Test
  void waitingGivesUpWhenNothingComesOrTheFlowIsDone() throws Exception {
    rates.ask(flow, "2");
    assertNull(rates.await(flow, 20));
    rates.accept("app", push(1, "app", 2e6));
    rates.done(3, 1);
    assertNull(rates.get(flow));
    assertEquals(0, rates.size());
  }
}
