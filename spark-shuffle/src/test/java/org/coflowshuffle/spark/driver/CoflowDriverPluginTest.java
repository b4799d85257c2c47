/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.LinkHeadroom;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.spark.Messages;
import org.junit.jupiter.api.Test;

/** How the driver answers an executor's rate questions, against a real embedded coordinator. */
class CoflowDriverPluginTest {

  private static final double MB = 1e6;

  @Test
  void aRateAskTakesTheProgressItCarriesBeforeAnswering() throws Exception {
    // One reducer on R fetches 100 MB from each of two senders over R's 100 MB/s, planned on as
    // much of it as the headroom leaves: half each while both run, all of it for the second once
    // the first has delivered its bytes.
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 1));
    c.mapOutput(1, 0, "s0", new long[] {100_000_000});
    c.mapOutput(1, 1, "s1", new long[] {100_000_000});
    c.place(1, 2, 1);
    int[] shuffles = {1, 1};
    int[] reducers = {0, 0};
    String[] sources = {"s0", "s1"};
    double[] before =
        CoflowDriverPlugin.rates(
            c, new Messages.RateQueries(shuffles, reducers, sources, new long[2], "R"));
    double link = 100 * MB * LinkHeadroom.PLANNED_SHARE;
    assertArrayEquals(new double[] {link / 2, link / 2}, before, 1e-3);
    double[] after =
        CoflowDriverPlugin.rates(
            c,
            new Messages.RateQueries(
                shuffles, reducers, sources, new long[] {100_000_000, 0}, "R"));
    assertEquals(link, after[1], 1e-3, "the ask that ended the first flow frees its share");
  }

  @Test
  void questionsOfUnequalLengthsAreRefused() {
    Messages.RateQueries bad =
        new Messages.RateQueries(new int[] {1}, new int[] {0}, new String[0], new long[1], "R");
    assertThrows(IllegalArgumentException.class, () -> CoflowDriverPlugin.rates(null, bad));
  }
}
