/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.rpc.RpcEndpointRef;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.Messages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the driver orders executors to do; the executors' RPC references are the seam. */
class ExecutorOrdersTest {

  /** Every reducer's blocks: one of 10 bytes on executor 9. */
  private final ExecutorOrders orders =
      new ExecutorOrders(
          (shuffle, reducer) ->
              new Messages.FetchOrder(
                  shuffle,
                  reducer,
                  new String[] {"9"},
                  new String[] {"h9"},
                  new int[] {7337},
                  new String[] {"h9:4000"},
                  new String[][] {{"shuffle_" + shuffle + "_0_" + reducer}},
                  new long[][] {{10}}));

  private final MachineExecutors machines = new MachineExecutors();

  @AfterEach
  void stop() {
    orders.stop();
  }

  private RpcEndpointRef executor(ExecutorSlots e) {
    RpcEndpointRef ref = mock(RpcEndpointRef.class);
    machines.added(e);
    orders.register(e.executorId(), ref);
    return ref;
  }

  private static Object order(int... values) {
    return argThat(o -> o instanceof int[] a && Arrays.equals(a, values));
  }

  /** An order to fetch reducer {@code reducer} of shuffle {@code shuffle}, as sent. */
  private static Object fetch(int shuffle, int reducer) {
    return argThat(
        o ->
            o instanceof Object[] wire
                && Messages.FetchOrder.of(wire).shuffleId() == shuffle
                && Messages.FetchOrder.of(wire).reducer() == reducer);
  }

  @Test
  void asksGatheredWithinAMomentGoOnceToTheExecutorsThatAreFetching() throws Exception {
    RpcEndpointRef fetching = executor(new ExecutorSlots("1", "h1", 2, "h1"));
    RpcEndpointRef idle = executor(new ExecutorSlots("2", "h2", 2, "h2"));
    orders.asked("1");
    for (int i = 0; i < 5; i++) {
      orders.askRatesNow(); // five flows ending together
    }
    verify(fetching, timeout(2000)).send(order());
    Thread.sleep(5 * ExecutorOrders.GATHER_MILLIS);
    verify(fetching, times(1)).send(any());
    verify(idle, never()).send(any());
  }

  @Test
  void aPlacedStageOrdersItsOnePartitionTasksOnExecutorsAloneOnTheirMachine() {
    ExecutorSlots alone = new ExecutorSlots("1", "h1", 2, "h1");
    ExecutorSlots shared = new ExecutorSlots("2", "h2", 2, "h2");
    ExecutorSlots beside = new ExecutorSlots("3", "h2", 2, "h2");
    RpcEndpointRef aloneRef = executor(alone);
    RpcEndpointRef sharedRef = executor(shared);
    executor(beside);
    // reducers 0 and 1 one task each, on h1 and on a machine of two executors; 2 and 3 one task
    ShufflePlacement p =
        new ShufflePlacement(
            List.of(7),
            "rpc",
            List.of(alone, shared, alone, alone),
            ReduceTaskRanges.of(new int[] {0, 1, 2}, 4),
            1);
    orders.placed(p, machines);
    verify(aloneRef).send(fetch(7, 0));
    verify(aloneRef, never()).send(fetch(7, 2)); // a task of two reducers may batch its blocks
    verify(sharedRef, never()).send(fetch(7, 1)); // it may start beside its executor
  }

  @Test
  void aTaskStartedAwayFromTheExecutorFetchingAheadForItHasThatOneDropIt() {
    ExecutorSlots one = new ExecutorSlots("1", "h1", 2, "h1");
    ExecutorSlots two = new ExecutorSlots("2", "h2", 2, "h2");
    RpcEndpointRef oneRef = executor(one);
    RpcEndpointRef twoRef = executor(two);
    orders.placed(
        new ShufflePlacement(
            List.of(7), "rpc", List.of(one, two), ReduceTaskRanges.of(new int[] {0, 1}, 2), 1),
        machines);
    assertEquals(2, orders.pending());
    orders.taskStarted(7, 0, "1"); // where it was placed: nothing to drop
    orders.taskStarted(7, 1, "1"); // Spark ran it on executor 1, not on 2
    verify(twoRef).send(order(7, 1));
    verify(oneRef, never()).send(order(7, 0));
    orders.taskStarted(7, 1, "2"); // a retry: the order was dropped already
    verify(twoRef, times(1)).send(order(7, 1));
    assertEquals(0, orders.pending(), "nothing is kept once the tasks started");
  }

  @Test
  void ordersWhoseTasksNeverStartedGoWithTheirShuffleOrTheirExecutor() {
    ExecutorSlots one = new ExecutorSlots("1", "h1", 2, "h1");
    ExecutorSlots two = new ExecutorSlots("2", "h2", 2, "h2");
    executor(one);
    executor(two);
    orders.placed(
        new ShufflePlacement(
            List.of(7), "rpc", List.of(one, two), ReduceTaskRanges.of(new int[] {0, 1}, 2), 1),
        machines);
    orders.removed("2");
    assertEquals(1, orders.pending());
    orders.forget(7);
    assertEquals(0, orders.pending());
  }

  @Test
  void aReducerWhoseBlocksAreNotKnownIsLeftToItsTask() {
    ExecutorOrders lost =
        new ExecutorOrders(
            (shuffle, reducer) -> {
              throw new IllegalStateException("map outputs of shuffle " + shuffle + " lost");
            });
    try {
      RpcEndpointRef ref = mock(RpcEndpointRef.class);
      ExecutorSlots alone = new ExecutorSlots("1", "h1", 2, "h1");
      machines.added(alone);
      lost.register("1", ref);
      lost.placed(
          new ShufflePlacement(
              List.of(7), "rpc", List.of(alone), ReduceTaskRanges.of(new int[] {0}, 1), 1),
          machines);
      verify(ref, never()).send(argThat(o -> o instanceof Object[]));
    } finally {
      lost.stop();
    }
  }
}
