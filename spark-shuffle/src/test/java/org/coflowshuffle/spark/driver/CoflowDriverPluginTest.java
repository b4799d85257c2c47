/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
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
            c, new Messages.RateQueries(shuffles, reducers, sources, new long[2], "R"), null);
    double link = 100 * MB * LinkHeadroom.PLANNED_SHARE;
    assertArrayEquals(new double[] {link / 2, link / 2}, before, 1e-3);
    double[] after =
        CoflowDriverPlugin.rates(
            c,
            new Messages.RateQueries(shuffles, reducers, sources, new long[] {100_000_000, 0}, "R"),
            null);
    assertEquals(link, after[1], 1e-3, "the ask that ended the first flow frees its share");
  }

  @Test
  void aQuestionNoTaskWaitsForIsNotPacedAndDoesNotStartItsReducerAgain() throws Exception {
    // Two reducers on R, one from each sender; the first one's task ends with a report short of
    // its bytes. A question about it afterwards (its failed fetch running on, say) would start it
    // anew at the coordinator, which would then pace it against the second on R's link.
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 2));
    c.mapOutput(1, 0, "s0", new long[] {100_000_000, 0});
    c.mapOutput(1, 1, "s1", new long[] {0, 100_000_000});
    c.place(1, 2, 2);
    ReducerTasks tasks = new ReducerTasks((shuffle, reducer) -> Optional.of("R"));
    double link = 100 * MB * LinkHeadroom.PLANNED_SHARE;
    ask(c, tasks, 0, "s0", "R", 0);
    assertEquals(link / 2, ask(c, tasks, 1, "s1", "R", 0), 1e-3, "both fetch: they share R");
    tasks.ended(1, 0);
    c.reducerDone(1, 0);

    assertEquals(Double.POSITIVE_INFINITY, ask(c, tasks, 0, "s0", "R", 0));
    assertEquals(link, ask(c, tasks, 1, "s1", "R", 0), 1e-3, "the link is the second's alone");
    assertEquals(
        Double.POSITIVE_INFINITY, ask(c, tasks, 1, "s1", "Q", 0), "nor does one from elsewhere");
  }

  private static double ask(
      LiveCoordinator c, ReducerTasks tasks, int reducer, String source, String from, long bytes) {
    return CoflowDriverPlugin.rates(
        c,
        new Messages.RateQueries(
            new int[] {1}, new int[] {reducer}, new String[] {source}, new long[] {bytes}, from),
        tasks)[0];
  }

  @Test
  void questionsOfUnequalLengthsAreRefused() {
    Messages.RateQueries bad =
        new Messages.RateQueries(new int[] {1}, new int[] {0}, new String[0], new long[1], "R");
    assertThrows(IllegalArgumentException.class, () -> CoflowDriverPlugin.rates(null, bad, null));
  }
}
