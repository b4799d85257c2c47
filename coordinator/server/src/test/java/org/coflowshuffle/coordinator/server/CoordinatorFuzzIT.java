/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.Test;

/**
 * At least 100,000 random and mutated frames ({@code -Dcoflow.fuzz.frames=N} to change), each
 * followed by a ping: the server answers every frame the codec refuses with that error and closes,
 * answers state errors of valid frames with a state error, never fails internally, leaks no
 * connection or thread, and still serves a well-behaved client at the end.
 */
class CoordinatorFuzzIT {

  private static final int FRAMES = Integer.getInteger("coflow.fuzz.frames", 100_000);
  private static final int MAX_FRAME = 64 * 1024;
  private static final Set<ErrorCode> STATE_ERRORS =
      Set.of(ErrorCode.OUT_OF_ORDER, ErrorCode.MALFORMED, ErrorCode.NOT_ALLOWED);

  @Test
  void everyBadFrameIsAnsweredAndNothingLeaks() throws Exception {
    // One line per refused frame is right for operators, but not 100,000 of them here.
    java.util.logging.Logger.getLogger(CoordinatorServer.class.getName())
        .setLevel(java.util.logging.Level.WARNING);
    int threadsBefore = Thread.activeCount();
    Map<ErrorCode, Integer> errors = new EnumMap<>(ErrorCode.class);
    Map<String, Integer> kinds = new TreeMap<>();
    int accepted = 0;
    int connections = 0;
    long start = System.nanoTime();
    try (CoordinatorServer server =
        CoordinatorServer.start(
            CoordinatorConf.from(
                Map.of(
                    "coflow.coordinator.port", "0",
                    "coflow.coordinator.httpPort", "0",
                    "coflow.coordinator.maxFrameBytes", String.valueOf(MAX_FRAME))))) {
      InetSocketAddress address = server.address();
      FrameFuzzer fuzzer = new FrameFuzzer(20261122L, MAX_FRAME);
      RawConnection c = null;
      String app = null;
      for (int i = 0; i < FRAMES; i++) {
        if (c == null) {
          c = RawConnection.hello(address, null);
          app = "fuzz-" + connections++;
          c.send(new Message.RegisterApp(app));
          c.send(new Message.RegisterShuffle(app, 0, 2, 2));
        }
        FrameFuzzer.Fuzz f = fuzzer.next(app);
        kinds.merge(f.kind(), 1, Integer::sum);
        c.write(f.bytes());
        c.send(new Message.Ping(i));
        while (true) {
          Message m = c.read();
          assertNotNull(m, "frame " + i + " (" + f.kind() + "): closed without an error");
          if (m instanceof Message.Pong p && p.value() == i) {
            if (f.expected() != null) {
              fail("frame " + i + " (" + f.kind() + ") should be refused with " + f.expected());
            }
            accepted++;
            break;
          }
          if (m instanceof Message.Error e) {
            if (f.expected() != null) {
              assertEquals(f.expected(), e.code(), "frame " + i + " (" + f.kind() + "): " + e);
            } else {
              assertTrue(STATE_ERRORS.contains(e.code()), "frame " + i + ": " + e);
            }
            assertTrue(c.closedByServer(), "frame " + i + ": not closed after " + e);
            errors.merge(e.code(), 1, Integer::sum);
            c.close();
            c = null;
            break;
          }
        }
      }
      if (c != null) {
        c.close();
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (server.openConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, server.openConnections(), "connections left open");
      assertTrue(server.status().applications().isEmpty(), "applications of closed connections");
      try (CoordinatorClient good =
          CoordinatorClient.connect(address, "after", null, Duration.ofSeconds(5))) {
        good.send(new Message.Ping(-5));
        assertEquals(-5, good.await(Message.Pong.class, Duration.ofSeconds(5)).value());
      }
      PrometheusText metrics = PrometheusText.parse(server.metricsText());
      assertEquals(0, metrics.value("coflow_frame_errors_total{code=\"INTERNAL\"}"));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "fuzz: %d frames in %.1f s over %d connections: %d accepted, errors %s, kinds %s%n",
        FRAMES, seconds, connections, accepted, errors, kinds);
    assertTrue(errors.values().stream().mapToInt(Integer::intValue).sum() > FRAMES / 4);
    Thread.sleep(500);
    assertTrue(
        Thread.activeCount() <= threadsBefore + 2,
        "threads before " + threadsBefore + ", after " + Thread.activeCount() + ": " + List.of());
  }
}
