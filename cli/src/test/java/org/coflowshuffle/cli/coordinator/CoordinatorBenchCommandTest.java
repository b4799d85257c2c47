/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.Ran;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;
import org.junit.jupiter.api.Test;

class CoordinatorBenchCommandTest {

  private static final String[] SMALL = {
    "--hosts",
    "4",
    "--coflows",
    "3",
    "--maps",
    "2",
    "--reducers",
    "3",
    "--fetchers",
    "2",
    "--events",
    "400",
    "--paced-rate",
    "200",
    "--warmup-seconds",
    "0", // a warm-up would finish these few flows before the measured phase
    "--paced-seconds",
    "1",
    "--json"
  };

  private static Ran bench(String... args) {
    return Ran.of(new CoordinatorBenchCommand()::run, args);
  }

  private static String[] with(String... more) {
    String[] all = new String[SMALL.length + more.length];
    System.arraycopy(SMALL, 0, all, 0, SMALL.length);
    System.arraycopy(more, 0, all, SMALL.length, more.length);
    return all;
  }

  /** A coordinator on free ports with one setting of the test's. */
  private static CoordinatorServer server(String key, String value) throws IOException {
    return CoordinatorServer.start(
        CoordinatorConf.from(
            Map.of(
                CoordinatorConf.PORT.name(),
                "0",
                CoordinatorConf.HTTP_PORT.name(),
                "0",
                key,
                value)));
  }

  /** The small benchmark against {@code server}'s ports, then {@code more}. */
  private static String[] connectedTo(CoordinatorServer server, String... more) {
    String[] ports = {
      "--connect",
      "127.0.0.1:" + server.address().getPort(),
      "--http",
      "127.0.0.1:" + server.httpAddress().getPort()
    };
    String[] all = Arrays.copyOf(ports, ports.length + more.length);
    System.arraycopy(more, 0, all, ports.length, more.length);
    return with(all);
  }

  @Test
  void quantilesOfAHistogramInterpolateWithinTheirBucket() {
    List<Double> bounds = List.of(0.001, 0.01, Double.POSITIVE_INFINITY);
    // 50 decisions up to 1 ms, 40 more up to 10 ms, 10 beyond.
    long[] cumulative = {50, 90, 100};
    assertEquals(0.001, CoordinatorProbe.histogramQuantile(bounds, cumulative, 0.5), 1e-12);
    assertEquals(
        0.001 + 0.009 * 30 / 40.0,
        CoordinatorProbe.histogramQuantile(bounds, cumulative, 0.8),
        1e-12);
    assertEquals(
        0.01,
        CoordinatorProbe.histogramQuantile(bounds, cumulative, 0.99),
        1e-12,
        "in the +Inf bucket: its lower bound");
    assertTrue(Double.isNaN(CoordinatorProbe.histogramQuantile(bounds, new long[3], 0.5)));
  }

  @Test
  void drivesACoordinatorRunningElsewhereThroughItsPorts() throws Exception {
    try (CoordinatorServer server = server(CoordinatorConf.SCHEME.name(), "varys")) {
      long before = server.decisions();
      Ran r = bench(connectedTo(server));
      assertEquals(0, r.status(), r.err());
      JsonNode json = new ObjectMapper().readTree(r.out().strip());
      long decided = json.get("pacedDecisions").asLong() + json.get("openDecisions").asLong();
      assertTrue(decided > 0, r.out());
      assertTrue(
          server.decisions() - before >= decided, "what it reports, the server did: " + r.out());
      assertTrue(json.get("pacedLatencyP99Ms").asDouble() > 0, r.out());
      assertTrue(json.get("coordinator").asText().contains("/metrics"), r.out());
      assertEquals("varys", json.get("scheme").asText(), "the scheme it runs, not our default");
    }
  }

  @Test
  void runsItsOwnCoordinatorWithoutConnect() throws Exception {
    Ran r = bench(SMALL);
    assertEquals(0, r.status(), r.err());
    JsonNode json = new ObjectMapper().readTree(r.out().strip());
    assertTrue(json.get("pacedDecisions").asLong() > 0, r.out());
    assertTrue(json.get("coordinator").asText().startsWith("in this JVM"), r.out());
  }

  @Test
  void theDriverStaysConnectedWhileTheFetchersRun() throws Exception {
    // The driver says nothing after placing; silent past the coordinator's client timeout, it
    // would be dropped with its application, and the fetchers' events refused.
    try (CoordinatorServer server = server(CoordinatorConf.CLIENT_TIMEOUT.name(), "3s")) {
      Ran r = bench(connectedTo(server, "--warmup-seconds", "5"));
      assertEquals(0, r.status(), r.err());
    }
  }

  @Test
  void timesDecisionsAloneWithoutSockets() throws Exception {
    Ran r = bench(with("--direct", "--decisions", "4"));
    assertEquals(0, r.status(), r.err());
    JsonNode json = new ObjectMapper().readTree(r.out().strip());
    assertEquals(4, json.get("decisions").asInt(), r.out());
    assertTrue(json.get("decisionP99Ms").asDouble() >= json.get("decisionP50Ms").asDouble());
    assertTrue(json.get("decisionP50Ms").asDouble() > 0, r.out());
    r = bench(with("--direct", "--connect", "127.0.0.1:1", "--http", "127.0.0.1:2"));
    assertEquals(Command.USAGE, r.status());
    assertTrue(r.err().contains("--direct times a coordinator here"), r.err());
  }

  @Test
  void badAddressesGetOneLine() {
    Ran r = bench(with("--connect", "nowhere", "--http", "127.0.0.1:1"));
    assertEquals(Command.USAGE, r.status());
    assertEquals("coflow bench coordinator: --connect wants HOST:PORT, got \"nowhere\"\n", r.err());
    r = bench(with("--connect", "127.0.0.1:1"));
    assertEquals(Command.USAGE, r.status());
    assertTrue(r.err().contains("--connect and --http go together"), r.err());
    r = bench(with("--warmup-seconds", "-1"));
    assertEquals(Command.USAGE, r.status());
    assertEquals(
        "coflow bench coordinator: --warmup-seconds: expected an integer of 0 or more, got \"-1\"\n",
        r.err());
  }
}
