/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.junit.jupiter.api.Test;

class LiveCoordinatorTest {

  private static final double MB = 1e6;

  /** The share of a link the decisions plan on: "the link" below is that share of it. */
  private static final double LINK = LinkHeadroom.PLANNED_SHARE;

  /** A share of a link as {@link LiveCoordinator#linkUse} prints it. */
  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * share);
  }

  /** A rate in MB/s as the status lines print it. */
  private static String mbps(double megabytes) {
    return String.format(Locale.ROOT, "%.2f", megabytes);
  }

  private static LiveCoordinator coordinator(String scheme) {
    LiveCoordinator c = new LiveCoordinator(scheme, SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("1", "hostA", 1));
    c.executorAdded(new ExecutorSlots("2", "hostB", 1));
    return c;
  }

  @Test
  void placesEachReducerWhereMostOfItsInputAlreadyIs() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    // Map 0 on executor 1 holds most of reducer 1's input, map 1 on executor 2 most of reducer 0's.
    c.mapOutput(7, 0, "1", new long[] {1_000, 900_000_000});
    c.mapOutput(7, 1, "2", new long[] {800_000_000, 2_000});
    ShufflePlacement p = c.place(7, 2, 2);
    assertEquals("2", p.executorOf(0).executorId());
    assertEquals("1", p.executorOf(1).executorId());
    assertSame(p, c.place(7, 2, 2), "a shuffle is placed once");
    assertEquals(1, c.fetchingShuffles());
    c.fetchFinished(7);
    assertEquals(0, c.fetchingShuffles());
  }

  @Test
  void placesAStageReadingTwoShufflesAsOneCoflow() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    // Shuffle 1 alone would put reducer 0 on executor 1; shuffle 2 holds far more for it on 2.
    c.mapOutput(1, 0, "1", new long[] {100_000_000, 1_000});
    c.mapOutput(2, 0, "2", new long[] {900_000_000, 1_000});
    c.mapOutput(2, 1, "1", new long[] {1_000, 900_000_000});
    ShufflePlacement p = c.placeTogether(new int[] {2, 1}, new int[] {2, 1}, 2);
    assertEquals(java.util.List.of(1, 2), p.shuffleIds());
    assertEquals("2", p.executorOf(0).executorId());
    assertEquals("1", p.executorOf(1).executorId());
    assertSame(p, c.place(1, 1, 2), "each shuffle answers with its stage's placement");
    assertSame(p, c.place(2, 2, 2));
    assertEquals(1, c.fetchingShuffles());
    c.fetchFinished(2);
    assertEquals(0, c.fetchingShuffles());
    c.forget(1);
    ShufflePlacement alone = c.place(2, 2, 2);
    assertEquals(java.util.List.of(2), alone.shuffleIds(), "forgetting one shuffle drops the pair");
  }

  @Test
  void placesATaskOfCoalescedReducersAsOneReducerWithAllTheirInput() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    // Alone, reducer 1 would go to executor 2, which holds all of its input; in one task with
    // reducer 0, whose far larger input is on executor 1, it goes to executor 1.
    c.mapOutput(3, 0, "1", new long[] {900_000_000, 1_000, 1_000});
    c.mapOutput(3, 1, "2", new long[] {1_000, 200_000_000, 300_000_000});
    LiveCoordinator alone = coordinator("rpc");
    alone.mapOutput(3, 0, "1", new long[] {900_000_000, 1_000, 1_000});
    alone.mapOutput(3, 1, "2", new long[] {1_000, 200_000_000, 300_000_000});
    assertEquals("2", alone.place(3, 2, 3).executorOf(1).executorId(), "one task per reducer");
    ReduceTaskRanges tasks = ReduceTaskRanges.of(new int[] {0, 2}, 3);
    ShufflePlacement p = c.placeTogether(new int[] {3}, new int[] {2}, tasks);
    assertEquals(tasks, p.tasks());
    assertEquals("1", p.executorOf(0).executorId());
    assertEquals("1", p.executorOf(1).executorId(), "a task's reducers share its executor");
    assertEquals("2", p.executorOfTask(1).executorId());
    assertEquals(p.executorOfTask(1), p.executorOf(2));
    // Each reducer of the task is paced for its own flows; together they are the task's.
    double r1 = c.rate(3, 1, "2", "1");
    double r0 = c.rate(3, 0, "2", "1");
    assertTrue(r1 > 0 && r1 > 1000 * r0, r1 + " and " + r0);
    assertTrue(r0 + r1 <= 100 * MB + 1e-3, "the task's link is not exceeded: " + (r0 + r1));
    assertTrue(c.status().get(0).startsWith("shuffle 3: r0@1 200.0/200.0 MB"), c.status().get(0));
    c.reducerDone(3, 1);
    c.reducerDone(3, 0);
    assertEquals("shuffle 3: no reducer fetching", c.status().get(0), "the task ended");
  }

  @Test
  void aStageGetsTheCoresThatStagesStillFetchingLeave() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core per executor
    c.mapOutput(1, 0, "1", new long[] {500_000_000});
    assertEquals("1", c.place(1, 1, 1).executorOf(0).executorId(), "where its input is");
    // Its input is on executor 1 too, but that core is taken: Spark would run it on 2 anyway.
    c.mapOutput(2, 0, "1", new long[] {100_000_000});
    assertEquals("2", c.place(2, 1, 1).executorOf(0).executorId());
    c.reducerDone(1, 0);
    c.reducerDone(2, 0);
    c.mapOutput(3, 0, "1", new long[] {100_000_000});
    assertEquals("1", c.place(3, 1, 1).executorOf(0).executorId(), "free again once they ended");
  }

  @Test
  void withNoCoreFreeAStageGoesWhereATaskHasFetchedEverything() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core per executor
    c.mapOutput(1, 0, "s", new long[] {100_000_000, 100_000_000});
    ShufflePlacement first = c.place(1, 1, 2);
    int onA = first.executorOf(0).executorId().equals("1") ? 0 : 1;
    c.rate(1, onA, "s", "1");
    c.rate(1, 1 - onA, "s", "2");
    c.delivered(1, onA, "s", 100_000_000); // it only sorts and writes now
    // Both cores are taken. The input is on executor 2, whose task is still fetching; executor 1's
    // core frees first, so the new stage waits there rather than past Spark's locality wait.
    c.mapOutput(2, 0, "2", new long[] {100_000_000});
    assertEquals("1", c.place(2, 1, 1).executorOf(0).executorId());
  }

  /**
   * Two stages of one task each, fetching at 100 MB/s on the one core of each executor: 0.1 s left
   * on the first, 5 s on the second. Returns their executors.
   */
  private static String[] aShortAndALongFetch(LiveCoordinator c) throws Exception {
    c.mapOutput(1, 0, "s", new long[] {10_000_000});
    String shortOn = c.place(1, 1, 1).executorOf(0).executorId();
    c.mapOutput(2, 0, "t", new long[] {500_000_000});
    String longOn = c.place(2, 1, 1).executorOf(0).executorId();
    assertNotEquals(shortOn, longOn, "one core each");
    assertEquals(100 * MB * LINK, c.rate(1, 0, "s", shortOn), 1e-3);
    assertEquals(100 * MB * LINK, c.rate(2, 0, "t", longOn), 1e-3);
    return new String[] {shortOn, longOn};
  }

  @Test
  void withNoCoreFreeAStageGoesWhereAFetchEndsFirst() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core per executor
    String[] on = aShortAndALongFetch(c);
    c.mapOutput(3, 0, on[1], new long[] {100_000_000});
    assertEquals(
        on[0],
        c.place(3, 1, 1).executorOf(0).executorId(),
        "the core whose fetch ends first, not the one by the input");
  }

  @Test
  void aTaskWaitingForACoreTakesTheFirstToFreeThere() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core per executor
    String[] on = aShortAndALongFetch(c);
    c.mapOutput(3, 0, on[0], new long[] {100_000_000});
    assertEquals(on[0], c.place(3, 1, 1).executorOf(0).executorId(), "waits there, by its input");
    // The core whose fetch ends first (0.1 s) goes to the task of stage 3 queued for it, so the
    // new stage gets the next one to free (5 s), away from its input.
    c.mapOutput(4, 0, on[0], new long[] {100_000_000});
    assertEquals(on[1], c.place(4, 1, 1).executorOf(0).executorId());
  }

  @Test
  void aCoreFreeNowComesBeforeOneThatFreesNext() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core per executor
    c.mapOutput(1, 0, "1", new long[] {100_000_000});
    assertEquals("1", c.place(1, 1, 1).executorOf(0).executorId());
    c.rate(1, 0, "1", "1"); // running, and with its input local it has nothing to fetch
    c.mapOutput(2, 0, "1", new long[] {100_000_000});
    assertEquals(
        "2",
        c.place(2, 1, 1).executorOf(0).executorId(),
        "executor 2's core is free now; executor 1's only frees next, input there or not");
  }

  /**
   * Executor 1 on a 100 MB/s host, 2 on a 10 MB/s host, one core each, on {@code clock}; stage 1
   * fetches 100 MB on executor 1 (1 s left) and stage 2's 100 MB of map output is ready.
   */
  private static LiveCoordinator aFastCoreFetching(double[] clock) throws Exception {
    LiveCoordinator c =
        new LiveCoordinator(
            "rpc", SchemeOptions.defaults(), 100 * MB, Map.of("hostB", 10 * MB), () -> clock[0]);
    c.executorAdded(new ExecutorSlots("1", "hostA", 1));
    c.executorAdded(new ExecutorSlots("2", "hostB", 1));
    c.mapOutput(1, 0, "s", new long[] {100_000_000});
    assertEquals("1", c.place(1, 1, 1).executorOf(0).executorId(), "the fast host");
    assertEquals(100 * MB * LINK, c.rate(1, 0, "s", "1"), 1e-3);
    c.mapOutput(2, 0, "t", new long[] {100_000_000});
    return c;
  }

  @Test
  void aStageHasFetchedWhenTheLastOfItsBytesOverTheNetworkArrived() throws Exception {
    double[] clock = {0};
    LiveCoordinator c =
        new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> clock[0]);
    c.executorAdded(new ExecutorSlots("1", "hostA", 1));
    c.executorAdded(new ExecutorSlots("2", "hostB", 1));
    c.mapOutput(1, 0, "s", new long[] {10_000_000, 20_000_000}); // s: a machine of its own
    c.place(1, 1, 2);
    assertTrue(Double.isNaN(c.sinceFetched(1)), "nothing arrived yet");
    clock[0] = 1;
    c.delivered(1, 0, "s", 10_000_000);
    assertTrue(Double.isNaN(c.sinceFetched(1)), "reducer 1 still fetches");
    clock[0] = 2;
    c.delivered(1, 1, "s", 15_000_000);
    assertTrue(Double.isNaN(c.sinceFetched(1)), "5 MB of reducer 1 still to come");
    clock[0] = 3;
    c.delivered(1, 1, "s", 5_000_000);
    clock[0] = 10; // the tasks sort and write
    assertEquals(7, c.sinceFetched(1), 1e-9, "its last byte arrived at 3 s");
    c.fetchFinished(1);
    assertTrue(Double.isNaN(c.sinceFetched(1)), "a stage no longer fetching");
    assertTrue(Double.isNaN(c.sinceFetched(9)), "a shuffle never placed");
  }

  @Test
  void theStatusComparesEachHostsPlannedRateOutWithWhatItSent() throws Exception {
    double[] clock = {0};
    LiveCoordinator c = aFastCoreFetching(clock);
    assertEquals(
        List.of("shuffle 1: r0@1 100.0/100.0 MB at " + mbps(100 * LINK) + " MB/s"),
        c.status(),
        "the first call only starts the count");
    clock[0] = 2;
    c.delivered(1, 0, "s", 50_000_000);
    // Executor s is not registered, so the lines name it rather than its host.
    assertEquals(
        List.of(
            "shuffle 1: r0@1 50.0/100.0 MB at "
                + mbps(100 * LINK)
                + " MB/s; out (planned/delivered MB/s): s "
                + mbps(100 * LINK)
                + "/25.00",
            "links out (planned/delivered MB/s): s " + mbps(100 * LINK) + "/25.00"),
        c.status());
    clock[0] = 3;
    c.delivered(1, 0, "s", 50_000_000);
    assertEquals(
        "links out (planned/delivered MB/s): s " + mbps(100 * LINK) + "/50.00",
        c.status().get(1),
        "counted from the last call: 50 MB in 1 s");
    clock[0] = 4;
    c.mapOutput(2, 0, "s", new long[] {10_000_000});
    c.place(2, 1, 1);
    c.rate(2, 0, "s", null);
    c.delivered(2, 0, "s", 10_000_000);
    c.fetchFinished(2);
    assertEquals(
        "links out (planned/delivered MB/s): s 0.00/10.00",
        c.status().get(1),
        "a stage that stopped fetching still counts for what it sent");
  }

  @Test
  void aShuffleReadAgainIsPlacedAnewWhenAnExecutorItsPlacementNamedLeft() throws Exception {
    LiveCoordinator c = aFastCoreFetching(new double[1]);
    c.fetchFinished(1);
    assertSame(c.place(1, 1, 1), c.place(1, 1, 1), "read again: where it was read before");
    c.executorRemoved("1"); // decommissioned: its shuffle files moved, or lost
    assertEquals("2", c.place(1, 1, 1).executorOf(0).executorId(), "on the executor left");
  }

  @Test
  void eachMachinesTrafficIsThePlannedRateAndTheBytesDeliveredEachWay() throws Exception {
    double[] clock = {0};
    LiveCoordinator c = aFastCoreFetching(clock);
    c.delivered(1, 0, "s", 30_000_000);
    Map<String, double[]> traffic = c.hostTraffic().get(List.of(1));
    assertArrayEquals(new double[] {100 * MB * LINK, 0, 30e6, 0}, traffic.get("hostA"), 1e-3);
    assertArrayEquals(new double[] {0, 100 * MB * LINK, 0, 30e6}, traffic.get("s"), 1e-3);
    assertEquals(Set.of("hostA", "s"), traffic.keySet(), "only machines its flows cross");
    c.fetchFinished(1);
    assertEquals(Map.of(), c.hostTraffic(), "a stage that stopped fetching is gone");
  }

  @Test
  void withSparksWaitForAnExecutorAStageWaitsForAFastCoreThatFreesSoon() throws Exception {
    LiveCoordinator c = aFastCoreFetching(new double[1]);
    c.slotWait(3);
    // The core frees in 1 s of fetch and the guessed 1 s of sorting; then 1 s to fetch: 3 s,
    // against 10 s on the slow host's free core.
    assertEquals("1", c.place(2, 1, 1).executorOf(0).executorId());
  }

  @Test
  void withoutAWaitForAnExecutorAStageTakesAFreeCore() throws Exception {
    LiveCoordinator c = aFastCoreFetching(new double[1]);
    assertEquals("2", c.place(2, 1, 1).executorOf(0).executorId());
  }

  @Test
  void aCoreIsNotWaitedForWhenTasksRunLongAfterTheirFetches() throws Exception {
    double[] clock = {0};
    LiveCoordinator c = aFastCoreFetching(clock);
    c.slotWait(3);
    // A task of another stage had its input at 1 s and ended at 6 s: tasks run 5 s after their
    // fetches, so the fast core frees past Spark's wait.
    c.mapOutput(3, 0, "s", new long[] {1_000_000});
    c.executorAdded(new ExecutorSlots("3", "hostC", 1));
    assertEquals("3", c.place(3, 1, 1).executorOf(0).executorId(), "the free core");
    c.rate(3, 0, "s", "3");
    clock[0] = 1;
    c.delivered(3, 0, "s", 1_000_000);
    clock[0] = 6;
    c.reducerDone(3, 0);
    c.executorRemoved("3");
    assertEquals("2", c.place(2, 1, 1).executorOf(0).executorId());
  }

  @Test
  void aFetchingReducerStaysPacedWhenTheExecutorOfOneNotStartedLeaves() throws Exception {
    LiveCoordinator c = coordinator("rpc"); // one core each
    c.executorAdded(new ExecutorSlots("3", "hostC", 1));
    c.mapOutput(1, 0, "1", new long[] {100_000_000, 100_000_000, 100_000_000});
    ShufflePlacement p = c.place(1, 1, 3);
    Map<String, Integer> reducerOn = new HashMap<>();
    for (int r = 0; r < 3; r++) {
      reducerOn.put(p.executorOf(r).executorId(), r);
    }
    assertEquals(3, reducerOn.size(), "one reducer per core: " + reducerOn);
    int onB = reducerOn.get("2");
    assertEquals(100 * MB * LINK, c.rate(1, onB, "1", "2"), 1e-3, "the only flow on the network");
    // Executor 3 leaves before its reducer started (Spark will run that one elsewhere, or, with
    // dynamic allocation, an executor to come was replaced by a real one); then a decision.
    c.executorRemoved("3");
    c.rate(1, reducerOn.get("1"), "1", "1");
    assertEquals(
        100 * MB * LINK, c.rate(1, onB, "1", "2"), 1e-3, "still paced, not left unlimited");
  }

  @Test
  void ratesServeTheShorterStageFirstAndMoveOnWhenItFinishes() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    // One core each: of two reducers one is local to executor 1, the other fetches from it.
    c.mapOutput(1, 0, "1", new long[] {500_000_000, 500_000_000});
    ShufflePlacement big = c.place(1, 1, 2);
    int bigRemote = big.executorOf(0).executorId().equals("2") ? 0 : 1;
    c.mapOutput(2, 0, "1", new long[] {10_000_000, 10_000_000});
    ShufflePlacement small = c.place(2, 1, 2);
    int smallRemote = small.executorOf(0).executorId().equals("2") ? 0 : 1;
    assertEquals(
        100 * MB * LINK,
        c.rate(1, bigRemote, "1", null),
        1e-3,
        "alone, the big stage gets the link");
    assertEquals(
        100 * MB * LINK,
        c.rate(2, smallRemote, "1", null),
        1e-3,
        "the shorter coflow gets the link");
    assertEquals(
        0, c.rate(1, bigRemote, "1", null), 1e-3, "the longer one waits (not work-conserving)");
    c.delivered(2, smallRemote, "1", 4_000_000);
    assertEquals(100 * MB * LINK, c.rate(2, smallRemote, "1", null), 1e-3);
    c.reducerDone(2, smallRemote);
    assertEquals(
        100 * MB * LINK, c.rate(1, bigRemote, "1", null), 1e-3, "then the longer one goes");
    c.fetchFinished(2);
    assertEquals(Double.POSITIVE_INFINITY, c.rate(2, smallRemote, "1", null), "finished: no limit");
    assertEquals(Double.POSITIVE_INFINITY, c.rate(9, 0, "1", null), "unknown: no limit");
  }

  @Test
  void aReducerRunningAwayFromItsPlacementIsPacedWhereItRuns() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    c.mapOutput(1, 0, "1", new long[] {500_000_000, 500_000_000});
    ShufflePlacement p = c.place(1, 1, 2);
    int placedOnOne = p.executorOf(0).executorId().equals("1") ? 0 : 1;
    assertEquals(
        "shuffle 1: no reducer fetching", c.status().get(0), "nothing asked for a rate yet");
    // Spark gave up waiting for executor 1: the reducer placed there runs on 2, and what it reads
    // from 1 now crosses the network. Modelled as local, it would get no rate and never finish.
    assertEquals(100 * MB * LINK, c.rate(1, placedOnOne, "1", "2"), 1e-3);
    assertTrue(
        c.status()
            .get(0)
            .startsWith("shuffle 1: r" + placedOnOne + "@2 500.0/500.0 MB at " + mbps(100 * LINK)),
        c.status().get(0));
  }

  /**
   * Executors 1 and 2 share machine "a" (100 MB/s), executor 3 is alone on "b" (60 MB/s), one core
   * each; executors x and y, which hold the map output, are gone.
   */
  private static LiveCoordinator twoExecutorsOnOneMachine() {
    LiveCoordinator c =
        new LiveCoordinator(
            "rpc", SchemeOptions.defaults(), 100 * MB, Map.of("b", 60 * MB), () -> 0.0);
    c.executorAdded(new ExecutorSlots("1", "a", 1));
    c.executorAdded(new ExecutorSlots("2", "a", 1));
    c.executorAdded(new ExecutorSlots("3", "b", 1));
    return c;
  }

  @Test
  void executorsOfOneMachineShareItsLink() throws Exception {
    LiveCoordinator c = twoExecutorsOnOneMachine();
    c.mapOutput(1, 0, "x", new long[] {500_000_000, 0});
    c.mapOutput(1, 1, "y", new long[] {0, 500_000_000});
    // As two hosts, executors 1 and 2 would take both reducers in 5 s; sharing a's link they would
    // take 10 s, so one goes to b (8.3 s).
    ShufflePlacement p = c.place(1, 2, 2);
    assertEquals(
        java.util.Set.of("a", "b"),
        java.util.Set.of(p.executorOf(0).host(), p.executorOf(1).host()),
        p.executorOfReducer().toString());
    int onA = p.executorOf(0).host().equals("a") ? 0 : 1;
    assertEquals(100 * MB * LINK, c.rate(1, onA, onA == 0 ? "x" : "y", null), 1e-3);
    assertEquals(60 * MB * LINK, c.rate(1, 1 - onA, onA == 0 ? "y" : "x", null), 1e-3);
  }

  @Test
  void aMachinesReducersCannotTogetherExceedItsLink() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("1", "a", 1));
    c.executorAdded(new ExecutorSlots("2", "a", 1));
    c.mapOutput(1, 0, "x", new long[] {500_000_000, 0});
    c.mapOutput(1, 1, "y", new long[] {0, 500_000_000});
    ShufflePlacement p = c.place(1, 2, 2);
    assertNotEquals(
        p.executorOf(0).executorId(),
        p.executorOf(1).executorId(),
        "a machine's tasks go to its executors with free cores");
    c.fetching(1, 0, null);
    c.fetching(1, 1, null);
    double in = c.rate(1, 0, "x", null) + c.rate(1, 1, "y", null);
    assertEquals(100 * MB * LINK, in, 1e-3, "a's link in, shared by its two executors");
    assertEquals(
        percent(LINK) + " (a in)", c.linkUse(), "the peak of every decision's planned rates");
  }

  @Test
  void executorsStandingForMachinesOfTheirOwnDoNotShareALink() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("1", "a", 1).alone());
    c.executorAdded(new ExecutorSlots("2", "a", 1).alone());
    c.mapOutput(1, 0, "x", new long[] {500_000_000, 0});
    c.mapOutput(1, 1, "y", new long[] {0, 500_000_000});
    ShufflePlacement p = c.place(1, 2, 2);
    assertEquals("a", p.executorOf(0).host(), "a task's location names the real host");
    c.fetching(1, 0, null);
    c.fetching(1, 1, null);
    assertEquals(200 * MB * LINK, c.rate(1, 0, "x", null) + c.rate(1, 1, "y", null), 1e-3);
    assertEquals(percent(LINK) + " (a/1 in)", c.linkUse());
  }

  @Test
  void aFlowBetweenTwoExecutorsOfOneMachineCrossesNoLink() throws Exception {
    LiveCoordinator c = twoExecutorsOnOneMachine();
    c.mapOutput(1, 0, "1", new long[] {500_000_000});
    ShufflePlacement p = c.place(1, 1, 1);
    assertEquals("a", p.executorOf(0).host(), "where its input is");
    // Spark runs the task on executor 2: its input, on executor 1 of the same machine, is read
    // from disk, or over loopback when host-local reads are off; no link limits either.
    assertEquals(Double.POSITIVE_INFINITY, c.rate(1, 0, "1", "2"));
    assertEquals("shuffle 1: r0@2 0.0/0.0 MB at 0.00 MB/s", c.status().get(0));
  }

  @Test
  void withNoBandwidthSetEachMachinesLinkIsWhatItsTransfersAchieveBelowItsNic() throws Exception {
    double[] now = {0};
    LiveCoordinator c =
        new LiveCoordinator(
            "rpc", SchemeOptions.defaults(), Double.NaN, Map.of(), true, () -> now[0]);
    c.nicSpeed("1", 1250 * MB); // before it registers: kept
    c.executorAdded(new ExecutorSlots("1", "a", 1));
    c.executorAdded(new ExecutorSlots("2", "b", 1));
    c.nicSpeed("2", 1250 * MB);
    c.mapOutput(1, 0, "1", new long[] {900_000_000, 900_000_000});
    int r = c.place(1, 1, 2).executorOf(0).executorId().equals("2") ? 0 : 1; // the other is local
    assertEquals(
        1250 * MB * LINK, c.rate(1, r, "1", "2"), 1e-3, "a veth's 10 Gbit/s, until measured");
    // The link is shaped to 10 MB/s: that is what the fetch delivers, reported every 0.2 s.
    for (int i = 1; i <= 150; i++) {
      now[0] = 0.2 * i;
      c.delivered(1, r, "1", 2_000_000);
      c.rate(1, r, "1", "2");
    }
    assertEquals(10 * MB, c.linkEstimates().get("a")[1], 1e-3, "a's link out");
    assertEquals(10 * MB, c.linkEstimates().get("b")[0], 1e-3, "b's link in");
    double rate = c.rate(1, r, "1", "2");
    assertTrue(
        rate >= 10 * MB * LINK && rate <= 12 * MB * LINK + 1e-3,
        "the rate follows the link: " + rate);
    assertTrue(c.linkUse().startsWith(percent(LINK)), c.linkUse());
  }

  /** Executor 1 on host "fast" (100 MB/s), executor 2 on "slow" (10 MB/s), four cores each. */
  private static LiveCoordinator fastAndSlow() {
    LiveCoordinator c =
        new LiveCoordinator(
            "rpc", SchemeOptions.defaults(), 100 * MB, Map.of("slow", 10 * MB), () -> 0.0);
    c.executorAdded(new ExecutorSlots("1", "fast", 4));
    c.executorAdded(new ExecutorSlots("2", "slow", 4));
    return c;
  }

  @Test
  void aSlowerHostGetsFewerReducers() throws Exception {
    LiveCoordinator c = fastAndSlow();
    c.executorAdded(new ExecutorSlots("3", "sender", 1));
    long[] even = new long[4];
    java.util.Arrays.fill(even, 100_000_000);
    c.mapOutput(5, 0, "3", even);
    ShufflePlacement p = c.place(5, 1, 4);
    long onSlow = p.executorOfReducer().stream().filter(e -> e.host().equals("slow")).count();
    assertEquals(0, onSlow, "every reducer on the 10x faster link");
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new LiveCoordinator("rpc", SchemeOptions.defaults(), MB, Map.of("h", 0.0), () -> 0.0));
  }

  @Test
  void spreadsMoreReducersThanCoresOverWaves() throws Exception {
    for (String scheme : new String[] {"rpc", "neat", "varys", "fair", "rpc-faithful"}) {
      LiveCoordinator c = coordinator(scheme);
      long[] even = new long[8];
      java.util.Arrays.fill(even, 50_000_000);
      c.mapOutput(1, 0, "1", even);
      c.mapOutput(1, 1, "2", even);
      ShufflePlacement p = c.place(1, 2, 8);
      Map<String, Integer> perExecutor = new HashMap<>();
      for (int r = 0; r < 8; r++) {
        perExecutor.merge(p.executorOf(r).executorId(), 1, Integer::sum);
      }
      assertEquals(Map.of("1", 4, "2", 4), perExecutor, scheme + ": four waves of one per core");
    }
  }

  @Test
  void modelsOneFlowPerExecutorAndReducerHoweverManyMapsRan() throws Exception {
    LiveCoordinator c = coordinator("rpc");
    for (int m = 0; m < 1000; m++) {
      c.mapOutput(5, m, m % 3 == 0 ? "1" : "2", new long[] {1, 2, m % 2});
    }
    c.mapOutputs(5, new int[] {1000, 1001}, "1", new long[] {10, 10, 10}); // a summed replay
    c.place(5, 1002, 3);
    java.util.Set<Integer> flows = new java.util.TreeSet<>();
    for (int r = 0; r < 3; r++) {
      for (String e : new String[] {"1", "2"}) {
        int[] ks = c.flowsOf(5, r, e);
        assertEquals(1, ks.length, "reducer " + r + " from " + e);
        flows.add(ks[0]);
      }
    }
    assertEquals(java.util.Set.of(0, 1, 2, 3, 4, 5), flows, "six flows, not 3,006");
  }

  @Test
  void refusesWithAReasonUntilEveryMapReported() {
    LiveCoordinator c = coordinator("rpc");
    c.mapOutput(3, 0, "1", new long[] {10, 10});
    var e = assertThrows(PlacementUnavailable.class, () -> c.place(3, 2, 2));
    assertTrue(e.getMessage().contains("no size report for map 1 of 2"), e.getMessage());
    c.mapOutput(3, 1, "1", new long[] {10});
    e = assertThrows(PlacementUnavailable.class, () -> c.place(3, 2, 2));
    assertTrue(e.getMessage().contains("reported 1 reducers, the stage has 2"), e.getMessage());
  }

  @Test
  void refusesWithoutExecutorsAndKeepsMapOutputOfLostExecutors() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.mapOutput(4, 0, "9", new long[] {10});
    var e = assertThrows(PlacementUnavailable.class, () -> c.place(4, 1, 1));
    assertTrue(e.getMessage().contains("no executors"), e.getMessage());
    c.executorAdded(new ExecutorSlots("1", "hostA", 2));
    assertEquals("1", c.place(4, 1, 1).executorOf(0).executorId(), "executor 9 only sends");
  }

  @Test
  void rejectsNegativeSizesAndUnknownSchemes() {
    LiveCoordinator c = coordinator("rpc");
    assertThrows(IllegalArgumentException.class, () -> c.mapOutput(1, 0, "1", new long[] {-1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new LiveCoordinator("nope", SchemeOptions.defaults(), MB, () -> 0.0));
    assertThrows(
        IllegalArgumentException.class,
        () -> new LiveCoordinator("rpc", SchemeOptions.defaults(), 0, () -> 0.0));
  }

  @Test
  void randomPlacementDrawsAgainForEveryShuffle() throws PlacementUnavailable {
    LiveCoordinator c = new LiveCoordinator("varys", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    for (int e = 0; e < 10; e++) {
      c.executorAdded(new ExecutorSlots(String.valueOf(e), "h" + e, 1));
    }
    java.util.Set<List<String>> placements = new java.util.HashSet<>();
    for (int s = 0; s < 5; s++) {
      c.mapOutput(s, 0, "0", new long[] {1 << 20, 1 << 20, 1 << 20});
      placements.add(
          c.place(s, 1, 3).executorOfReducer().stream().map(ExecutorSlots::executorId).toList());
      c.fetchFinished(s);
    }
    assertTrue(placements.size() > 1, "the same hosts every time: " + placements);
  }

  /** Ten maps on ten send-only executors, each holding {@code bytes} for the one reducer. */
  private static void tenSenders(LiveCoordinator c, int shuffle, long bytes) {
    for (int m = 0; m < 10; m++) {
      c.mapOutput(shuffle, m, "s" + m, new long[] {bytes});
    }
  }

  /** What the reducer of a shuffle gets from all ten senders together. */
  /** The rates planned for reducer 0's flows; a flow over (asked for all the same) plans none. */
  private static double total(LiveCoordinator c, int shuffle) {
    double sum = 0;
    for (int m = 0; m < 10; m++) {
      double r = c.rate(shuffle, 0, "s" + m, "R");
      sum += r < Double.POSITIVE_INFINITY ? r : 0;
    }
    return sum;
  }

  @Test
  void philaeLearnsFromItsPilotsAcrossDecisions() throws Exception {
    // Everything enters one executor's link. The big shuffle comes first; both are wide (ten
    // flows),
    // so each samples one pilot flow before Philae knows its size.
    LiveCoordinator c =
        new LiveCoordinator("philae", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 2));
    tenSenders(c, 1, 100_000_000);
    c.place(1, 10, 1);
    tenSenders(c, 2, 1_000_000);
    c.place(2, 10, 1);
    assertEquals(100 * MB * LINK, total(c, 1), 1e-3, "the first pilot takes the whole link");
    assertEquals(0, total(c, 2), 1e-3);
    int pilot1 = pilotOf(c, 1);
    c.delivered(1, 0, "s" + pilot1, 100_000_000);
    int pilot2 = pilotOf(c, 2);
    assertTrue(pilot2 >= 0, "the second shuffle's pilot runs once the first one's ended");
    c.delivered(2, 0, "s" + pilot2, 1_000_000);
    // Both sampled: the small one is estimated smaller and goes first. A scheme that forgot its
    // samples would pick new pilots for the first shuffle and run them before the second.
    assertEquals(100 * MB * LINK, total(c, 2), 1e-3, "the shuffle estimated smaller gets the link");
    assertEquals(0, total(c, 1), 1e-3);
  }

  @Test
  void wssPriorityGivesEachStageItsWeightsShareOfALinkTheyShare() throws Exception {
    // One receiving executor with two cores; two stages of equal size, weights 1 and 3.
    for (String scheme : List.of("wss-priority", "wss")) {
      LiveCoordinator c =
          new LiveCoordinator(scheme, SchemeOptions.defaults(), 100 * MB, () -> 0.0);
      c.executorAdded(new ExecutorSlots("R", "hostR", 2));
      c.mapOutput(1, 0, "s1", new long[] {100_000_000});
      c.placeTogether(new int[] {1}, new int[] {1}, ReduceTaskRanges.oneEach(1), 1);
      c.mapOutput(2, 0, "s2", new long[] {100_000_000});
      c.placeTogether(new int[] {2}, new int[] {1}, ReduceTaskRanges.oneEach(1), 3);
      c.rate(1, 0, "s1", "R");
      c.rate(2, 0, "s2", "R"); // both fetch now
      boolean weighted = scheme.equals("wss-priority");
      assertEquals(
          weighted ? 25 * MB * LINK : 100 * MB * LINK, c.rate(1, 0, "s1", "R"), 1e-3, scheme);
      assertEquals(weighted ? 75 * MB * LINK : 0, c.rate(2, 0, "s2", "R"), 1e-3, scheme);
    }
  }

  @Test
  void rpcServesAHeavierStageFirstWhenItsTimeOverWeightIsShorter() throws Exception {
    for (double weight : new double[] {1, 2}) {
      LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
      c.executorAdded(new ExecutorSlots("R", "hostR", 2));
      c.mapOutput(1, 0, "s1", new long[] {100_000_000});
      c.placeTogether(new int[] {1}, new int[] {1}, ReduceTaskRanges.oneEach(1), 1);
      c.mapOutput(2, 0, "s2", new long[] {150_000_000}); // 1.5 times longer
      c.placeTogether(new int[] {2}, new int[] {1}, ReduceTaskRanges.oneEach(1), weight);
      c.rate(1, 0, "s1", "R");
      c.rate(2, 0, "s2", "R");
      assertEquals(weight == 1 ? 100 * MB * LINK : 0, c.rate(1, 0, "s1", "R"), 1e-3, "w " + weight);
      assertEquals(weight == 1 ? 0 : 100 * MB * LINK, c.rate(2, 0, "s2", "R"), 1e-3, "w " + weight);
    }
  }

  @Test
  void aStageServedLongerThanTheStarvationThresholdStillYieldsToAShorterOne() throws Exception {
    double[] now = {0};
    LiveCoordinator c =
        new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> now[0]);
    c.executorAdded(new ExecutorSlots("R", "hostR", 2));
    c.mapOutput(1, 0, "s1", new long[] {50_000_000_000L}); // 500 s on the link
    c.placeTogether(new int[] {1}, new int[] {1}, ReduceTaskRanges.oneEach(1), 1);
    c.rate(1, 0, "s1", "R");
    assertEquals(100 * MB * LINK, c.rate(1, 0, "s1", "R"), 1e-3, "alone, it gets the link");
    now[0] = 2 * SchemeOptions.DEFAULT_STARVATION_THRESHOLD; // served all along: it never waited
    c.mapOutput(2, 0, "s2", new long[] {100_000_000});
    c.placeTogether(new int[] {2}, new int[] {1}, ReduceTaskRanges.oneEach(1), 1);
    c.rate(2, 0, "s2", "R");
    assertEquals(100 * MB * LINK, c.rate(2, 0, "s2", "R"), 1e-3, "the shorter stage first");
    assertEquals(0, c.rate(1, 0, "s1", "R"), 1e-3, "the older one is not starving");
  }

  @Test
  void aaloCountsWhatWasSentNotWhatWaitsForASlot() throws Exception {
    // One receiving executor; shuffle 1 came first and has two reducers, of which one fetches.
    double[] now = {0};
    LiveCoordinator c =
        new LiveCoordinator("aalo", SchemeOptions.defaults(), 100 * MB, () -> now[0]);
    c.executorAdded(new ExecutorSlots("R", "hostR", 2));
    c.mapOutput(1, 0, "s0", new long[] {100_000_000, 100_000_000});
    c.place(1, 1, 2);
    c.mapOutput(2, 0, "s1", new long[] {50_000_000});
    c.place(2, 1, 1);
    assertEquals(100 * MB * LINK, c.rate(1, 0, "s0", "R"), 1e-3);
    // Neither has sent anything: same queue, first come first served. Counting the waiting
    // reducer's 100 MB as sent would put shuffle 1 in a lower queue.
    assertEquals(0, c.rate(2, 0, "s1", "R"), 1e-3, "the later shuffle waits");
    assertEquals(100 * MB * LINK, c.rate(1, 0, "s0", "R"), 1e-3);
    c.delivered(1, 0, "s0", 20_000_000);
    now[0] = 1; // progress is taken into account at the next periodic decision
    assertEquals(
        100 * MB * LINK, c.rate(2, 0, "s1", "R"), 1e-3, "20 MB sent: past Aalo's first queue");
    assertEquals(0, c.rate(1, 0, "s0", "R"), 1e-3);
  }

  /** Ten maps on ten send-only executors whose sizes are not known, for the one reducer. */
  private static void tenSendersWithoutSizes(LiveCoordinator c, int shuffle) {
    for (int m = 0; m < 10; m++) {
      c.mapOutput(shuffle, m, "s" + m, null);
    }
  }

  /**
   * Shuffle 1 (500 MB, sizes known) and shuffle 2 (sizes unknown) into one executor's link: shuffle
   * 2's pilot goes first; once it ended, its size decides the order. At 1 MB a flow the nine left
   * are 9 MB and go before 500 MB; at 200 MB a flow, 1.8 GB waits behind it.
   */
  @Test
  void aStageWithoutSizesIsSampledThenOrderedByWhatItsPilotShowed() throws Exception {
    for (long pilotBytes : new long[] {1_000_000, 200_000_000}) {
      LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
      c.executorAdded(new ExecutorSlots("R", "hostR", 2));
      tenSenders(c, 1, 50_000_000);
      c.place(1, 10, 1);
      tenSendersWithoutSizes(c, 2);
      assertEquals("R", c.place(2, 10, 1).executorOf(0).executorId(), "placed without sizes");
      total(c, 1); // both reducers fetch now
      assertEquals(100 * MB * LINK, total(c, 2), 1e-3, "the pilot takes the whole link");
      assertEquals(0, total(c, 1), 1e-3);
      int pilot = pilotOf(c, 2);
      assertTrue(pilot >= 0, "one pilot");
      c.delivered(2, 0, "s" + pilot, pilotBytes);
      assertEquals(
          100 * MB * LINK,
          total(c, 2),
          1e-3,
          "a flow of unknown size ends when told, not by bytes");
      c.fetched(2, 0, "s" + pilot);
      boolean small = pilotBytes < 50_000_000;
      assertEquals(small ? 100 * MB * LINK : 0, total(c, 2), 1e-3, "estimated from its pilot");
      assertEquals(small ? 0 : 100 * MB * LINK, total(c, 1), 1e-3);
      assertEquals(0, c.rate(2, 0, "s" + pilot, "R"), 1e-3, "the pilot's flow is over");
    }
  }

  @Test
  void aRetriedTaskFetchesItsFlowsOfUnknownSizeAnew() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 1));
    c.mapOutput(3, 0, "s0", new long[] {50_000_000});
    c.mapOutput(3, 1, "s1", null);
    c.place(3, 2, 1);
    assertEquals(100 * MB * LINK, c.rate(3, 0, "s0", "R") + c.rate(3, 0, "s1", "R"), 1e-3);
    c.delivered(3, 0, "s1", 10_000_000);
    c.reducerDone(3, 0); // the attempt failed
    // The retry asks again: without starting anew, its flow from s1 would stay ended at rate 0.
    assertTrue(c.rate(3, 0, "s1", "R") > 0, "the retry fetches from s1 again");
  }

  @Test
  void aRetriedTaskFetchesItsFlowsOfKnownSizeAnew() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 1));
    c.mapOutput(3, 0, "s0", new long[] {50_000_000});
    c.place(3, 1, 1);
    assertEquals(100 * MB * LINK, c.rate(3, 0, "s0", "R"), 1e-3);
    c.delivered(3, 0, "s0", 30_000_000);
    c.reducerDone(3, 0); // the attempt failed
    assertEquals(
        100 * MB * LINK, c.rate(3, 0, "s0", "R"), 1e-3, "the retry fetches all 50 MB again");
    c.delivered(3, 0, "s0", 30_000_000);
    assertEquals(100 * MB * LINK, c.rate(3, 0, "s0", "R"), 1e-3, "20 MB left, not over");
  }

  @Test
  void aTaskFetchingAwayFromTheExecutorThatFetchedAheadForItFetchesEverythingAgain()
      throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 1));
    c.executorAdded(new ExecutorSlots("Q", "hostQ", 1));
    c.mapOutput(3, 0, "s0", new long[] {50_000_000});
    String placed = c.place(3, 1, 1).executorOf(0).executorId();
    String elsewhere = placed.equals("R") ? "Q" : "R";
    assertEquals(100 * MB * LINK, c.rate(3, 0, "s0", placed), 1e-3, "fetched ahead");
    c.delivered(3, 0, "s0", 30_000_000);
    // Spark ran the task on the other executor, which has none of the 30 MB.
    assertEquals(100 * MB * LINK, c.rate(3, 0, "s0", elsewhere), 1e-3);
    c.delivered(3, 0, "s0", 30_000_000);
    assertEquals(
        100 * MB * LINK, c.rate(3, 0, "s0", elsewhere), 1e-3, "20 MB left there, not over");
  }

  @Test
  void aFlowAskedForAfterItsCountSaysItIsOverIsNotHeld() throws Exception {
    LiveCoordinator c = new LiveCoordinator("rpc", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
    c.executorAdded(new ExecutorSlots("R", "hostR", 1));
    c.mapOutput(4, 0, "s0", new long[] {50_000_000});
    c.mapOutput(4, 1, "s1", new long[] {50_000_000});
    c.place(4, 2, 1);
    c.rate(4, 0, "s0", "R");
    // A failed attempt's fetch went on delivering for the retry's flow: counted over, yet fetching.
    c.delivered(4, 0, "s0", 50_000_000);
    assertEquals(Double.POSITIVE_INFINITY, c.rate(4, 0, "s0", "R"), "no hold nothing would lift");
    assertEquals(100 * MB * LINK, c.rate(4, 0, "s1", "R"), 1e-3, "the open flow keeps its rate");
  }

  @Test
  void philaeGetsAStageWithoutSizesAsItIsAndLearnsFromItsPilot() throws Exception {
    for (long pilotBytes : new long[] {1_000_000, 200_000_000}) {
      LiveCoordinator c =
          new LiveCoordinator("philae", SchemeOptions.defaults(), 100 * MB, () -> 0.0);
      c.executorAdded(new ExecutorSlots("R", "hostR", 2));
      tenSenders(c, 1, 50_000_000);
      c.place(1, 10, 1);
      int pilot1 = pilotOf(c, 1);
      c.delivered(1, 0, "s" + pilot1, 50_000_000); // shuffle 1 sampled: 50 MB a flow
      tenSendersWithoutSizes(c, 2);
      c.place(2, 10, 1);
      total(c, 1);
      int pilot = pilotOf(c, 2);
      assertTrue(pilot >= 0, "one pilot of shuffle 2, and nothing else of it, moves");
      c.delivered(2, 0, "s" + pilot, pilotBytes);
      c.fetched(2, 0, "s" + pilot);
      boolean small = pilotBytes < 50_000_000;
      assertEquals(
          small ? 100 * MB * LINK : 0, total(c, 2), 1e-3, "estimated from what its pilot got");
      assertEquals(small ? 0 : 100 * MB * LINK, total(c, 1), 1e-3);
    }
  }

  @Test
  void aStageWithSomeSizesUnknownIsPlacedAndPacedOnTheMeanOfTheKnownOnes() throws Exception {
    LiveCoordinator c = fastAndSlow();
    c.mapOutput(5, 0, "s0", new long[] {100_000_000, 100_000_000, 100_000_000, 100_000_000});
    c.mapOutput(5, 1, "s1", null); // reported without sizes
    ShufflePlacement p = c.place(5, 2, 4);
    long onSlow = p.executorOfReducer().stream().filter(e -> e.host().equals("slow")).count();
    assertEquals(0, onSlow, "every reducer on the 10x faster link");
    for (int r = 0; r < 4; r++) {
      c.rate(5, r, "s0", null);
    }
    // No pilots: map 1's flows are taken as large as map 0's, so each reducer's two flows end
    // together and the four reducers share the fast executor's link.
    for (int r = 0; r < 4; r++) {
      assertEquals(12.5 * MB * LINK, c.rate(5, r, "s0", null), 1e-3);
      assertEquals(12.5 * MB * LINK, c.rate(5, r, "s1", null), 1e-3);
    }
    c.reducerDone(5, 0);
    assertTrue(c.status().get(0).startsWith("shuffle 5: r1@1 200.0/200.0 MB"), c.status().get(0));
  }

  /** The sender of the one flow of a shuffle that fetches now, or -1 (none or several). */
  private static int pilotOf(LiveCoordinator c, int shuffle) {
    int pilot = -1;
    for (int m = 0; m < 10; m++) {
      if (c.rate(shuffle, 0, "s" + m, "R") > 0) {
        if (pilot >= 0) {
          return -1;
        }
        pilot = m;
      }
    }
    return pilot;
  }
}
