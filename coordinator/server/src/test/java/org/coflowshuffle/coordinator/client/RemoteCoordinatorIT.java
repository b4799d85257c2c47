/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;
import org.junit.jupiter.api.Test;

/** A driver's link to a real standalone coordinator: it places, paces, and survives its loss. */
class RemoteCoordinatorIT {

  private final List<String> log = new CopyOnWriteArrayList<>();

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static CoordinatorServer server(int port, String secret) throws Exception {
    Map<String, String> settings = new HashMap<>();
    settings.put("coflow.coordinator.port", String.valueOf(port));
    settings.put("coflow.coordinator.httpPort", "0");
    if (secret != null) {
      settings.put("coflow.coordinator.secret", secret);
      settings.put("coflow.coordinator.bindAddress", "127.0.0.1");
    }
    return CoordinatorServer.start(CoordinatorConf.from(settings));
  }

  private RemoteCoordinator link(int port, String secret) {
    return new RemoteCoordinator(
        new InetSocketAddress("127.0.0.1", port),
        () -> "app-1",
        Credentials.shared(secret),
        Duration.ofSeconds(5),
        log::add,
        log::add);
  }

  /** Two executors; shuffle 0 with two maps, each holding most of one reducer's input. */
  private static void shuffle(RemoteCoordinator c) {
    c.executorAdded(new ExecutorSlots("1", "hA", 1));
    c.executorAdded(new ExecutorSlots("2", "hB", 1));
    c.mapOutput(0, 0, "1", new long[] {9_000_000, 1_000_000});
    c.mapOutput(0, 1, "2", new long[] {1_000_000, 9_000_000});
  }

  @Test
  void placesAndPacesThroughTheService() throws Exception {
    int port = freePort();
    try (CoordinatorServer server = server(port, "k");
        RemoteCoordinator c = link(port, "k")) {
      shuffle(c);
      ShufflePlacement p = c.place(0, 2, 2);
      assertEquals(
          List.of("1", "2"),
          p.executorOfReducer().stream().map(ExecutorSlots::executorId).toList());
      assertEquals("hA", p.executorOf(0).host());
      assertEquals(p, c.place(0, 2, 2), "asked once, then remembered");
      waitFor(() -> finite(c.rate(0, 0, "2", "1")), "a pushed rate");
      assertTrue(server.status().applications().containsKey("app-1"));
      assertEquals(1, server.status().coflows().size());
      c.fetchFinished(0);
      waitFor(() -> server.status().coflows().isEmpty(), "the coflow done");
      assertEquals(Double.POSITIVE_INFINITY, c.rate(0, 0, "2", "1"));
    }
    assertTrue(log.get(0).contains("connected (scheme rpc)"), log.toString());
  }

  @Test
  void aWrongSecretIsOneLineAndSparkPlacesItself() throws Exception {
    int port = freePort();
    try (CoordinatorServer server = server(port, "k");
        RemoteCoordinator c = link(port, "guess")) {
      shuffle(c);
      PlacementUnavailable e = assertThrows(PlacementUnavailable.class, () -> c.place(0, 2, 2));
      assertTrue(e.getMessage().contains("UNAUTHENTICATED"), e.getMessage());
      assertEquals(Double.POSITIVE_INFINITY, c.rate(0, 0, "2", "1"));
    }
    assertEquals(1, log.size(), log.toString());
    assertTrue(log.get(0).contains("unreachable"), log.get(0));
  }

  @Test
  void anApplicationPastTheServicesLimitStaysWithSparkWithoutRetrying() throws Exception {
    int port = freePort();
    try (CoordinatorServer server =
            CoordinatorServer.start(
                CoordinatorConf.from(
                    Map.of(
                        "coflow.coordinator.port", String.valueOf(port),
                        "coflow.coordinator.httpPort", "0",
                        "coflow.coordinator.maxEntriesPerClient", "3")));
        RemoteCoordinator c = link(port, null)) {
      waitFor(c::connected, "connected");
      shuffle(c); // two executors and an application: three entries, then a shuffle is one more
      assertThrows(PlacementUnavailable.class, () -> c.place(0, 2, 2));
      waitFor(() -> !c.connected(), "refused");
      Thread.sleep(4000); // past the 3 s after which a lost link reconnects
      assertTrue(!c.connected(), "no reconnection: it would be refused again");
      assertEquals(Double.POSITIVE_INFINITY, c.rate(0, 0, "2", "1"));
      assertTrue(server.openConnections() == 0, "nothing left open on the service");
    }
    // The link may be taken down first by a write the service no longer reads ("Broken pipe"):
    // the line that says the application stays with Spark gives the service's reason itself.
    List<String> stays = log.stream().filter(l -> l.contains("holds no more")).toList();
    assertEquals(1, stays.size(), log.toString());
    assertTrue(stays.get(0).contains("LIMIT"), stays.get(0));
  }

  @Test
  void aCoordinatorThatComesLaterIsUsedOnceItIsThere() throws Exception {
    int port = freePort();
    try (RemoteCoordinator c = link(port, null)) {
      shuffle(c);
      PlacementUnavailable e = assertThrows(PlacementUnavailable.class, () -> c.place(0, 2, 2));
      assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
      try (CoordinatorServer server = server(port, null)) {
        waitFor(c::connected, "reconnected");
        Thread.sleep(1100); // past the second in which a refused placement is not asked again
        ShufflePlacement p = c.place(0, 2, 2); // from the map output kept while it was away
        assertEquals(2, p.executorOfReducer().size());
      }
    }
    assertEquals(
        2, log.stream().filter(l -> !l.contains("connection lost")).count(), log.toString());
    assertTrue(log.get(1).contains("connected"), log.toString());
  }

  @Test
  void losingTheCoordinatorMidShuffleFallsBackAtOnce() throws Exception {
    int port = freePort();
    try (RemoteCoordinator c = link(port, null)) {
      try (CoordinatorServer server = server(port, null)) {
        waitFor(c::connected, "connected");
        shuffle(c);
        c.place(0, 2, 2);
        waitFor(() -> finite(c.rate(0, 0, "2", "1")), "a pushed rate");
      }
      waitFor(() -> !c.connected(), "the loss noticed");
      assertEquals(Double.POSITIVE_INFINITY, c.rate(0, 0, "2", "1"), "unpaced without it");
      c.mapOutput(1, 0, "1", new long[] {5});
      PlacementUnavailable e = assertThrows(PlacementUnavailable.class, () -> c.place(1, 1, 1));
      assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
      assertEquals(2, c.place(0, 2, 2).executorOfReducer().size(), "made placements stay");
    }
    // Before the server started, then one line for the loss, whatever the attempts since say.
    assertEquals(3, log.size(), log.toString());
    assertTrue(log.get(1).contains("connected"), log.toString());
    assertTrue(
        log.get(2).contains("unreachable") && log.get(2).contains("connection lost"), log.get(2));
  }

  private static boolean finite(double rate) {
    return rate >= 0 && rate < Double.POSITIVE_INFINITY;
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }
}
