/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.junit.jupiter.api.Test;

class GrowingClusterTest {

  private static final long GB = 1_000_000_000L;

  /** YARN has room on h3 (a slower link), h1 and h2, in that order. */
  private final List<String> spare = new CopyOnWriteArrayList<>(List.of("h3", "h1", "h2"));

  /** A real coordinator; executor 1 on h1 with 2 cores runs every map task. */
  private GrowingCluster cluster(int maxExecutors) {
    GrowingCluster c =
        new GrowingCluster(
            new LiveCoordinator("rpc", SchemeOptions.defaults(), 100e6, () -> 0.0),
            () -> spare,
            host -> host.equals("h3") ? 50e6 : 100e6,
            2,
            maxExecutors);
    c.executorAdded(new ExecutorSlots("1", "h1", 2));
    return c;
  }

  private static ShufflePlacement placeFourReducers(GrowingCluster c, int shuffleId)
      throws Exception {
    c.mapOutput(shuffleId, 0, "1", new long[] {GB, GB, GB, GB});
    return c.place(shuffleId, 1, 4);
  }

  private static Set<String> executors(ShufflePlacement p) {
    Set<String> ids = new TreeSet<>();
    IntStream.range(0, 4).forEach(r -> ids.add(p.executorOf(r).executorId()));
    return ids;
  }

  private static void done(GrowingCluster c, int shuffleId) {
    IntStream.range(0, 4).forEach(r -> c.reducerDone(shuffleId, r));
    c.fetchFinished(shuffleId);
  }

  @Test
  void offersTheBestLinkedHostsWithoutAnExecutorUpToTheMostAllowed() throws Exception {
    // Four reducers, two cores: the one executor that may still start goes to h2 (h1 has one, h3
    // is slower), rather than a second wave on h1.
    ShufflePlacement p = placeFourReducers(cluster(2), 0);
    assertEquals(Set.of("1", "new@h2"), executors(p));
    for (int r = 0; r < 4; r++) {
      ExecutorSlots e = p.executorOf(r);
      assertEquals(
          e.executorId().equals("1") ? "executor_h1_1" : "h2",
          GrowingCluster.location(e),
          "Spark's form: an executor, or the host of one to come");
      assertTrue(GrowingCluster.ranWherePlaced(e, "7", e.host()), "any executor of the machine");
      assertFalse(GrowingCluster.ranWherePlaced(e, e.executorId(), "h9"));
    }
    ExecutorSlots alone = new ExecutorSlots("1", "h1", 2).alone(); // local-cluster
    assertTrue(GrowingCluster.ranWherePlaced(alone, "1", "h1"));
    assertFalse(GrowingCluster.ranWherePlaced(alone, "7", "h1"), "another machine there");
    // With more allowed, no more are offered than the stage's tasks could fill.
    Set<String> more = executors(placeFourReducers(cluster(5), 0));
    assertTrue(Set.of("1", "new@h2", "new@h3").containsAll(more), more.toString());
  }

  @Test
  void anExecutorThatRegistersTakesThePlaceOfTheOneToComeOnItsHost() throws Exception {
    GrowingCluster c = cluster(2);
    placeFourReducers(c, 0);
    c.executorAdded(new ExecutorSlots("2", "h2", 2));
    done(c, 0);
    assertEquals(Set.of("1", "2"), executors(placeFourReducers(c, 1)), "the most is reached");
    done(c, 1);
    // Dynamic allocation released executor 2, and YARN gave h2's room to someone else.
    c.executorRemoved("2");
    spare.remove("h2");
    assertEquals(Set.of("1", "new@h3"), executors(placeFourReducers(c, 2)));
  }

  @Test
  void anExecutorToComeStaysWhileItsHostHasRoom() throws Exception {
    GrowingCluster c = cluster(3);
    placeFourReducers(c, 0);
    assertEquals(Set.of("h2", "h3"), c.offered());
    // A stage of one task, while the first one's tasks wait for their executors: nothing offered
    // for them is taken away, though one task alone would not ask for two.
    c.mapOutput(1, 0, "1", new long[] {GB});
    c.place(1, 1, 1);
    assertEquals(Set.of("h2", "h3"), c.offered());
    spare.remove("h3");
    c.mapOutput(2, 0, "1", new long[] {GB});
    c.place(2, 1, 1);
    assertEquals(Set.of("h2"), c.offered(), "h3's room went to someone else");
  }

  @Test
  void withNoRoomLeftReducersStayOnTheRunningExecutors() throws Exception {
    GrowingCluster c = cluster(2);
    assertEquals(Set.of("1", "new@h2"), executors(placeFourReducers(c, 0)));
    done(c, 0);
    spare.clear();
    assertEquals(Set.of("1"), executors(placeFourReducers(c, 1)), "two waves on executor 1");
  }
}
