/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.coordinator.live.LinkHeadroom;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;
import org.junit.jupiter.api.Test;

class ClusterSchedulerTest {

  /** A client that keeps what it was sent. */
  static final class RecordingPeer implements Peer {
    final List<Message> received = new ArrayList<>();
    final String name;

    RecordingPeer(String name) {
      this.name = name;
    }

    @Override
    public void send(Message m) {
      received.add(m);
    }

    @Override
    public String name() {
      return name;
    }

    <T extends Message> List<T> all(Class<T> type) {
      return received.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends Message> T last(Class<T> type) {
      List<T> all = all(type);
      return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /** The latest rate of each flow, by "app/shuffle/reducer/source". */
    Map<String, Double> rates() {
      Map<String, Double> out = new HashMap<>();
      for (Message.Rates r : all(Message.Rates.class)) {
        for (Message.FlowRate f : r.rates()) {
          out.put(
              f.app() + "/" + f.shuffle() + "/" + f.reducer() + "/" + f.source(),
              f.bytesPerSecond());
        }
      }
      return out;
    }
  }

  private double now;
  private final ClusterScheduler scheduler =
      new ClusterScheduler(CoordinatorConf.defaults(0, 0), () -> now);

  /** App with executors 1 and 2 (on hosts hA, hB), one shuffle of 2 maps and 2 reducers. */
  private void app(RecordingPeer driver, String app, long big) throws ProtocolException {
    scheduler.handle(driver, new Message.RegisterApp(app));
    scheduler.handle(
        driver,
        new Message.Executors(
            app,
            List.of(
                new Message.ExecutorInfo("1", "hA", 1), new Message.ExecutorInfo("2", "hB", 1))));
    scheduler.handle(driver, new Message.RegisterShuffle(app, 0, 2, 2));
    scheduler.handle(driver, new Message.MapOutput(app, 0, 0, "hA", "1", new long[] {big, 10}));
    scheduler.handle(driver, new Message.MapOutput(app, 0, 1, "hB", "2", new long[] {10, big}));
  }

  @Test
  void placesEachApplicationOnItsOwnExecutors() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    RecordingPeer b = new RecordingPeer("b");
    app(a, "app-a", 1_000_000);
    app(b, "app-b", 2_000_000);
    scheduler.handle(a, new Message.PlacementRequest("app-a", 1, new int[] {0}));
    scheduler.handle(b, new Message.PlacementRequest("app-b", 2, new int[] {0}));
    Message.Placement pa = a.last(Message.Placement.class);
    Message.Placement pb = b.last(Message.Placement.class);
    assertNull(pa.unavailable());
    assertEquals(1, pa.request());
    // Each reducer lands where most of its input is: no bytes cross the network for the big part.
    assertEquals(
        List.of(new Message.ReducerHost("1", "hA"), new Message.ReducerHost("2", "hB")),
        pa.reducers());
    assertEquals(pa.reducers(), pb.reducers());
    assertEquals("app-b", pb.app());
    Status s = scheduler.status();
    assertEquals(Map.of("app-a", 1, "app-b", 1), s.applications());
    assertEquals(2, s.coflows().size());
    assertEquals(List.of("1", "2"), s.coflows().get(0).reducerExecutors());
    assertEquals(20.0, s.coflows().get(0).networkBytes());
    assertEquals(1.0, s.coflows().get(0).weight());
  }

  @Test
  void aPlacementRequestsWeightReachesItsCoflow() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    app(a, "app", 1_000_000);
    scheduler.handle(a, new Message.PlacementRequest("app", 1, new int[] {0}, null, 2.5));
    assertNull(a.last(Message.Placement.class).unavailable());
    assertEquals(2.5, scheduler.status().coflows().get(0).weight());
  }

  @Test
  void aStageWhoseTaskReadsBothReducersGetsThemOnOneExecutor() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    app(a, "app", 1_000_000);
    assertCode(
        ErrorCode.MALFORMED,
        a,
        new Message.PlacementRequest("app", 1, new int[] {0}, new int[] {0, 2}));
    scheduler.handle(a, new Message.PlacementRequest("app", 2, new int[] {0}, new int[] {0}));
    List<Message.ReducerHost> hosts = a.last(Message.Placement.class).reducers();
    assertEquals(2, hosts.size(), "still one host per reducer");
    assertEquals(hosts.get(0), hosts.get(1), "one task, one executor");
  }

  @Test
  void anIncompleteShuffleIsNotPlacedAndSaysWhy() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    scheduler.handle(a, new Message.RegisterApp("app"));
    scheduler.handle(a, new Message.RegisterShuffle("app", 3, 2, 2));
    scheduler.handle(a, new Message.MapOutput("app", 3, 0, "h", "1", new long[] {1, 1}));
    scheduler.handle(a, new Message.PlacementRequest("app", 7, new int[] {3}));
    Message.Placement p = a.last(Message.Placement.class);
    assertTrue(p.reducers().isEmpty());
    assertEquals("shuffle 3 of app: no size report for map 1 of 2", p.unavailable());
  }

  @Test
  void messagesThatDoNotFitTheStateAreRefused() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    RecordingPeer other = new RecordingPeer("other");
    assertCode(ErrorCode.OUT_OF_ORDER, a, new Message.RegisterShuffle("app", 0, 1, 1));
    scheduler.handle(a, new Message.RegisterApp("app"));
    assertCode(ErrorCode.NOT_ALLOWED, other, new Message.RegisterApp("app"));
    assertCode(
        ErrorCode.OUT_OF_ORDER, a, new Message.MapOutput("app", 0, 0, "h", "1", new long[] {1}));
    scheduler.handle(a, new Message.RegisterShuffle("app", 0, 1, 2));
    assertCode(
        ErrorCode.OUT_OF_ORDER, a, new Message.MapOutput("app", 0, 1, "h", "1", new long[] {1, 1}));
    assertCode(
        ErrorCode.MALFORMED, a, new Message.MapOutput("app", 0, 0, "h", "1", new long[] {1}));
    assertCode(ErrorCode.OUT_OF_ORDER, a, new Message.RateRequest("app", 5, 0, "1", "2"));
    assertCode(ErrorCode.NOT_ALLOWED, a, new Message.Rates(1, List.of()));
    assertCode(ErrorCode.NOT_ALLOWED, a, new Message.Welcome("x", "rpc"));
  }

  @Test
  void aConnectionPastItsLimitIsRefusedAndWhatItFreesCountsAgain() throws ProtocolException {
    ClusterScheduler small =
        new ClusterScheduler(
            CoordinatorConf.from(
                Map.of(
                    CoordinatorConf.PORT.name(), "0",
                    CoordinatorConf.HTTP_PORT.name(), "0",
                    CoordinatorConf.MAX_ENTRIES_PER_CLIENT.name(), "25")),
            () -> now);
    RecordingPeer a = new RecordingPeer("a");
    RecordingPeer b = new RecordingPeer("b");
    small.handle(a, new Message.RegisterApp("app")); // 1
    small.handle(a, new Message.RegisterShuffle("app", 0, 4, 10)); // 2
    small.handle(a, new Message.MapOutput("app", 0, 0, "h1", "1", new long[10])); // 12
    small.handle(a, new Message.MapOutput("app", 0, 1, "h1", "1", new long[10])); // same executor
    small.handle(a, new Message.RateRequest("app", 0, 3, "2", "1")); // 22
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> small.handle(a, new Message.MapOutput("app", 0, 2, "h3", "3", new long[10])));
    assertEquals(ErrorCode.LIMIT, e.code());
    assertTrue(
        e.getMessage().contains("32 entries") && e.getMessage().contains("maxEntriesPerClient"),
        e.getMessage());
    small.handle(b, new Message.RegisterApp("other")); // another connection counts on its own
    small.handle(a, new Message.UnregisterShuffle("app", 0)); // frees 21
    small.handle(a, new Message.RegisterShuffle("app", 1, 4, 10)); // 2
    small.handle(a, new Message.MapOutput("app", 1, 0, "h3", "3", new long[10])); // 12
    small.handle(a, new Message.MapOutput("app", 1, 1, "h4", "4", new long[10])); // 22
    small.handle(a, new Message.RegisterShuffle("app", 2, 1, 1)); // 23
    List<Message.ExecutorInfo> three =
        List.of(
            new Message.ExecutorInfo("1", "h1", 1),
            new Message.ExecutorInfo("2", "h2", 1),
            new Message.ExecutorInfo("3", "h3", 1));
    assertEquals(
        ErrorCode.LIMIT,
        assertThrows(
                ProtocolException.class,
                () -> small.handle(a, new Message.Executors("app", three))) // 26
            .code());
    small.disconnected(a);
    small.handle(a, new Message.RegisterApp("again")); // a closed connection's count is gone
  }

  @Test
  void aConnectionActsOnlyOnTheApplicationsItRegistered() throws ProtocolException {
    RecordingPeer owner = new RecordingPeer("owner");
    RecordingPeer intruder = new RecordingPeer("intruder");
    app(owner, "app", 1000);
    List<Message> foreign =
        List.of(
            new Message.RegisterApp("app"),
            new Message.RegisterShuffle("app", 9, 1, 1),
            new Message.MapOutput("app", 0, 0, "h1", "1", new long[] {1, 1}),
            new Message.Executors("app", List.of()),
            new Message.PlacementRequest("app", 1, new int[] {0}, null, null),
            new Message.RateRequest("app", 0, 0, "1", "2"),
            new Message.Progress("app", 0, 0, "1", 1, null),
            new Message.ReducerDone("app", 0, 0),
            new Message.ShuffleDone("app", 0),
            new Message.UnregisterShuffle("app", 0));
    for (Message m : foreign) {
      assertCode(ErrorCode.NOT_ALLOWED, intruder, m);
    }
    assertTrue(intruder.received.isEmpty(), "the intruder learnt nothing: " + intruder.received);
    scheduler.handle(owner, new Message.UnregisterShuffle("app", 0));
    assertEquals(Map.of("app", 0), scheduler.status().applications(), "the owner still acts");
  }

  @Test
  void aStageWaitsForAFastCoreOnlyWhenItsApplicationSaidItsTasksWait() throws ProtocolException {
    for (Double wait : new Double[] {null, 3.0}) {
      ClusterScheduler s =
          new ClusterScheduler(
              CoordinatorConf.from(
                  Map.of(
                      "coflow.coordinator.port", "0",
                      "coflow.coordinator.httpPort", "0",
                      "coflow.coordinator.defaultBandwidth", "100m",
                      "coflow.coordinator.hostBandwidth", "hB=10m")),
              () -> 0.0);
      RecordingPeer driver = new RecordingPeer("driver");
      s.handle(driver, new Message.RegisterApp("app", wait));
      s.handle(
          driver,
          new Message.Executors(
              "app",
              List.of(
                  new Message.ExecutorInfo("1", "hA", 1), new Message.ExecutorInfo("2", "hB", 1))));
      s.handle(driver, new Message.RegisterShuffle("app", 0, 1, 1));
      s.handle(driver, new Message.MapOutput("app", 0, 0, "hS", "s", new long[] {100_000_000}));
      s.handle(driver, new Message.PlacementRequest("app", 1, new int[] {0}));
      assertEquals("1", driver.last(Message.Placement.class).reducers().get(0).executor());
      s.handle(driver, new Message.RateRequest("app", 0, 0, "s", "1"));
      s.pushRates(); // its reducer fetches at full speed
      // A second stage of the same size: executor 1's core frees in about 2 s (1 s of fetch, the
      // guessed 1 s of sorting) and fetches it in 1 s; executor 2's link needs 10 s.
      s.handle(driver, new Message.RegisterShuffle("app", 1, 1, 1));
      s.handle(driver, new Message.MapOutput("app", 1, 0, "hT", "t", new long[] {100_000_000}));
      s.handle(driver, new Message.PlacementRequest("app", 2, new int[] {1}));
      assertEquals(
          wait == null ? "2" : "1",
          driver.last(Message.Placement.class).reducers().get(0).executor(),
          "locality wait " + wait);
    }
  }

  @Test
  void ratesArePushedToFetchersUntilTheirReducerIsDone() throws ProtocolException {
    RecordingPeer driver = new RecordingPeer("driver");
    app(driver, "app", 1_000_000);
    scheduler.handle(driver, new Message.PlacementRequest("app", 1, new int[] {0}));
    scheduler.handle(driver, new Message.RateRequest("app", 0, 0, "2", "1"));
    assertEquals(1, scheduler.pushRates());
    Message.Rates first = driver.last(Message.Rates.class);
    Double rate = first.rates().get(0).bytesPerSecond();
    assertNotNull(rate);
    assertTrue(rate > 0, "rate " + rate);
    assertEquals(-1, scheduler.pushRates(), "nothing changed, nothing decided");

    // Other traffic on the receiving host slows the flow down; the fetcher is told.
    scheduler.handle(
        driver,
        new Message.Bandwidth("hA", 0.9 * CoordinatorConf.defaults(0, 0).hostBytesPerSecond(), 0));
    assertEquals(1, scheduler.pushRates());
    Message.Rates second = driver.last(Message.Rates.class);
    assertTrue(second.epoch() > first.epoch());
    assertTrue(second.rates().get(0).bytesPerSecond() < rate, second.toString());

    scheduler.handle(driver, new Message.ReducerDone("app", 0, 0));
    assertEquals(0, scheduler.status().rateRequests());
  }

  @Test
  void aCompletedFlowCallsForADecisionAndProgressAloneDoesNot() throws ProtocolException {
    RecordingPeer driver = new RecordingPeer("driver");
    app(driver, "app", 1_000_000);
    scheduler.handle(driver, new Message.PlacementRequest("app", 1, new int[] {0}));
    scheduler.handle(driver, new Message.RateRequest("app", 0, 0, "2", "1"));
    scheduler.pushRates();
    assertTrue(!scheduler.decisionDue());
    scheduler.handle(driver, new Message.Progress("app", 0, 0, "2", 4));
    assertTrue(!scheduler.decisionDue(), "4 of 10 bytes");
    assertEquals(now + 1.0, scheduler.wakeUpAt(), "progress is looked at within a second");
    scheduler.handle(driver, new Message.Progress("app", 0, 0, "2", Long.MAX_VALUE));
    assertTrue(scheduler.decisionDue(), "the flow completed");
  }

  @Test
  void aShuffleWithoutSizesIsPlacedAndItsFlowsEndWhenProgressSaysDone() throws ProtocolException {
    RecordingPeer driver = new RecordingPeer("driver");
    scheduler.handle(driver, new Message.RegisterApp("app"));
    scheduler.handle(
        driver, new Message.Executors("app", List.of(new Message.ExecutorInfo("1", "hA", 1))));
    scheduler.handle(driver, new Message.RegisterShuffle("app", 0, 2, 1));
    scheduler.handle(driver, new Message.MapOutput("app", 0, 0, "hS", "s0", null));
    scheduler.handle(driver, new Message.MapOutput("app", 0, 1, "hT", "s1", null));
    scheduler.handle(driver, new Message.PlacementRequest("app", 1, new int[] {0}));
    assertNull(driver.last(Message.Placement.class).unavailable());
    scheduler.handle(driver, new Message.RateRequest("app", 0, 0, "s0", "1"));
    scheduler.handle(driver, new Message.RateRequest("app", 0, 0, "s1", "1"));
    scheduler.pushRates();
    // Two senders: one pilot, on the whole link; the other flow waits for what it leaves.
    Map<String, Double> rates = driver.rates();
    double link = CoordinatorConf.defaults(0, 0).hostBytesPerSecond() * LinkHeadroom.PLANNED_SHARE;
    String pilot = rates.get("app/0/0/s0") > 0 ? "s0" : "s1";
    assertEquals(link, rates.get("app/0/0/" + pilot), 1e-6, rates.toString());
    assertEquals(0, rates.get("app/0/0/" + (pilot.equals("s0") ? "s1" : "s0")), 1e-6);
    scheduler.handle(driver, new Message.Progress("app", 0, 0, pilot, 1 << 30));
    assertTrue(!scheduler.decisionDue(), "bytes alone do not end a flow of unknown size");
    scheduler.handle(driver, new Message.Progress("app", 0, 0, pilot, 0, true));
    assertTrue(scheduler.decisionDue(), "done does");
    scheduler.pushRates();
    assertEquals(0, driver.rates().get("app/0/0/" + pilot), 1e-6);
    assertEquals(link, driver.rates().get("app/0/0/" + (pilot.equals("s0") ? "s1" : "s0")), 1e-6);
  }

  @Test
  void aClosedDriverConnectionDropsItsApplicationOnly() throws ProtocolException {
    RecordingPeer a = new RecordingPeer("a");
    RecordingPeer b = new RecordingPeer("b");
    app(a, "app-a", 1000);
    app(b, "app-b", 1000);
    scheduler.handle(a, new Message.PlacementRequest("app-a", 1, new int[] {0}));
    scheduler.handle(b, new Message.PlacementRequest("app-b", 1, new int[] {0}));
    scheduler.handle(a, new Message.RateRequest("app-a", 0, 0, "2", "1"));
    scheduler.disconnected(a);
    Status s = scheduler.status();
    assertEquals(Map.of("app-b", 1), s.applications());
    assertEquals(1, s.coflows().size());
    assertEquals("app-b", s.coflows().get(0).app());
    assertEquals(0, s.rateRequests());
    assertCode(ErrorCode.OUT_OF_ORDER, b, new Message.RegisterShuffle("app-a", 0, 1, 1));
  }

  private void assertCode(ErrorCode code, Peer from, Message m) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> scheduler.handle(from, m));
    assertEquals(code, e.code(), e.getMessage());
  }
}
