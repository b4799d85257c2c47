/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.coflowshuffle.coordinator.live.LinkHeadroom;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.io.InstanceReader;
import org.coflowshuffle.simulator.io.ScheduleWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications talk to a real coordinator over loopback sockets and get what {@code coflow solve}
 * computes for the same instance, on the links as the coordinator plans on them.
 */
class CoordinatorServerIT {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] HOSTS = {"h0", "h1", "h2", "h3"};
  private static final double[] LINKS = {50e6, 100e6, 100e6, 200e6};

  @TempDir Path dir;
  private CoordinatorServer server;

  private CoordinatorServer start(Map<String, String> extra) throws IOException {
    Map<String, String> settings = new HashMap<>(extra);
    settings.put("coflow.coordinator.port", "0");
    settings.put("coflow.coordinator.httpPort", "0");
    settings.put(
        "coflow.coordinator.hostBandwidth", "h0=50000000,h1=100000000,h2=100000000,h3=200000000");
    server = CoordinatorServer.start(CoordinatorConf.from(settings));
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** One application's shuffle: map outputs on four executors, one per host. */
  private record Shuffle(String app, int maps, int reducers, long[][] bytes) {
    static Shuffle random(String app, long seed) {
      Random r = new Random(seed);
      int maps = 4;
      int reducers = 3;
      long[][] bytes = new long[maps][reducers];
      for (long[] row : bytes) {
        for (int j = 0; j < reducers; j++) {
          row[j] = 1_000_000L + r.nextInt(50_000_000);
        }
      }
      return new Shuffle(app, maps, reducers, bytes);
    }

    /**
     * The same shuffle as an instance of docs/coflow-instance.md, on the links as the service plans
     * on them ({@link LinkHeadroom}).
     */
    String instance() {
      ObjectNode root = JSON.createObjectNode();
      ArrayNode hosts = root.putArray("hosts");
      for (int e = 0; e < HOSTS.length; e++) {
        hosts
            .addObject()
            .put("id", String.valueOf(e))
            .put("inBytesPerSec", LINKS[e] * LinkHeadroom.PLANNED_SHARE)
            .put("outBytesPerSec", LINKS[e] * LinkHeadroom.PLANNED_SHARE)
            .put("reducerSlots", 1)
            .put("canHostReducers", true);
      }
      ObjectNode c = root.putArray("coflows").addObject().put("id", "C").put("arrival", 0.0);
      ArrayNode rs = c.putArray("reducers");
      for (int j = 0; j < reducers; j++) {
        rs.addObject().put("id", "r" + j);
      }
      ArrayNode flows = c.putArray("flows");
      for (int m = 0; m < maps; m++) {
        for (int j = 0; j < reducers; j++) {
          flows
              .addObject()
              .put("src", String.valueOf(m))
              .put("reducer", "r" + j)
              .put("bytes", bytes[m][j]);
        }
      }
      return root.toString();
    }
  }

  /** What {@code coflow solve --scheme rpc} prints for the instance. */
  private JsonNode solve(String instance) throws Exception {
    Path file = dir.resolve("instance-" + System.nanoTime() + ".json");
    Files.writeString(file, instance);
    Schedule schedule =
        ScheduleRunner.run(
            InstanceReader.read(file), Schemes.create("rpc", SchemeOptions.defaults()));
    return JSON.readTree(ScheduleWriter.write(schedule));
  }

  private static void register(CoordinatorClient driver, Shuffle s) throws IOException {
    driver.send(new Message.RegisterApp(s.app()));
    List<Message.ExecutorInfo> executors =
        List.of(
            new Message.ExecutorInfo("0", HOSTS[0], 1),
            new Message.ExecutorInfo("1", HOSTS[1], 1),
            new Message.ExecutorInfo("2", HOSTS[2], 1),
            new Message.ExecutorInfo("3", HOSTS[3], 1));
    driver.send(new Message.Executors(s.app(), executors));
    driver.send(new Message.RegisterShuffle(s.app(), 0, s.maps(), s.reducers()));
    for (int m = 0; m < s.maps(); m++) {
      driver.send(new Message.MapOutput(s.app(), 0, m, HOSTS[m], String.valueOf(m), s.bytes()[m]));
    }
  }

  /**
   * Reads until the server has applied everything sent before and pushed what that decided (a ping
   * is answered after the messages before it; the second also after the push they queued), keeping
   * the latest rate of each flow.
   */
  private static Map<String, Double> settle(CoordinatorClient c, long id) throws IOException {
    Map<String, Double> rates = new HashMap<>();
    for (long ping = 2 * id; ping < 2 * id + 2; ping++) {
      c.send(new Message.Ping(ping));
      while (true) {
        Message m = c.receive(WAIT);
        if (m instanceof Message.Pong p && p.value() == ping) {
          break;
        }
        if (m instanceof Message.Rates r) {
          for (Message.FlowRate f : r.rates()) {
            rates.put(f.reducer() + "<" + f.source(), f.bytesPerSecond());
          }
        }
      }
    }
    return rates;
  }

  @Test
  void applicationsGetThePlacementsAndRatesThatSolveGives() throws Exception {
    // solve's default is the paper's strict schedule; the service's default hands out idle
    // bandwidth.
    start(Map.of(CoordinatorConf.WORK_CONSERVING.name(), "false"));
    InetSocketAddress address = server.address();
    for (int a = 0; a < 3; a++) {
      Shuffle s = Shuffle.random("app-" + a, a);
      JsonNode expected = solve(s.instance());
      try (CoordinatorClient driver = CoordinatorClient.connect(address, "driver", null, WAIT)) {
        register(driver, s);
        driver.send(new Message.PlacementRequest(s.app(), 40 + a, new int[] {0}));
        Message.Placement p = driver.await(Message.Placement.class, WAIT);
        assertNull(p.unavailable());
        assertEquals(40 + a, p.request());
        JsonNode placement = expected.get("coflows").get(0).get("placement");
        for (int j = 0; j < s.reducers(); j++) {
          assertEquals(placement.get("r" + j).asText(), p.reducers().get(j).executor(), "r" + j);
          assertEquals(
              HOSTS[Integer.parseInt(p.reducers().get(j).executor())], p.reducers().get(j).host());
        }
        // Every reducer fetches what the other executors hold for it.
        for (int j = 0; j < s.reducers(); j++) {
          String at = p.reducers().get(j).executor();
          for (int m = 0; m < s.maps(); m++) {
            if (!String.valueOf(m).equals(at)) {
              driver.send(new Message.RateRequest(s.app(), 0, j, String.valueOf(m), at));
            }
          }
        }
        Map<String, Double> rates = settle(driver, a);
        int compared = 0;
        for (JsonNode f : expected.get("flows")) {
          if (f.get("src").asText().equals(f.get("dst").asText())) {
            continue;
          }
          double first = f.get("segments").get(0).get(2).asDouble();
          assertEquals(0.0, f.get("segments").get(0).get(0).asDouble());
          String key = f.get("reducer").asText().substring(1) + "<" + f.get("src").asText();
          assertEquals(first, rates.get(key), 1e-6 * first, key);
          compared++;
        }
        assertEquals(rates.size(), compared);
        driver.send(new Message.ShuffleDone(s.app(), 0));
      }
    }
    waitFor(() -> server.openConnections() == 0, "connections closed");
    assertTrue(server.status().applications().isEmpty());
  }

  @Test
  void statusAndMetricsAreServedOverHttp() throws Exception {
    start(Map.of());
    Shuffle s = Shuffle.random("app-http", 7);
    try (CoordinatorClient driver =
        CoordinatorClient.connect(server.address(), "driver", null, WAIT)) {
      register(driver, s);
      driver.send(new Message.PlacementRequest(s.app(), 1, new int[] {0}));
      driver.await(Message.Placement.class, WAIT);

      HttpClient http = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + server.httpAddress().getPort();
      JsonNode status = JSON.readTree(get(http, base + "/status"));
      assertEquals("rpc", status.get("scheme").asText());
      assertEquals(1, status.get("applications").get("app-http").asInt());
      JsonNode coflow = status.get("coflows").get(0);
      assertEquals("app-http", coflow.get("app").asText());
      assertEquals(3, coflow.get("reducerExecutors").size());

      PrometheusText metrics = PrometheusText.parse(get(http, base + "/metrics"));
      assertEquals(4, metrics.value("coflow_frames_received_total{type=\"MAP_OUTPUT\"}"));
      assertEquals(0, metrics.value("coflow_frame_errors_total{code=\"INTERNAL\"}"));
      assertEquals(1, metrics.value("coflow_active_coflows"));
      assertEquals(1, metrics.value("coflow_applications"));
      assertEquals(1, metrics.value("coflow_connections_open"));
      assertTrue(metrics.value("coflow_shuffle_bytes{state=\"remaining\"}") > 0, "" + metrics);
      double decisions = metrics.value("coflow_decisions_total");
      assertTrue(decisions >= 1, "" + metrics); // the placement, and rate decisions
      assertEquals(decisions, metrics.value("coflow_decision_latency_seconds_count"));
      assertEquals(decisions, metrics.value("coflow_decision_latency_seconds_bucket{le=\"+Inf\"}"));
      assertEquals("histogram", metrics.types().get("coflow_decision_latency_seconds"));
      assertEquals("counter", metrics.types().get("coflow_frames_received"));

      String page = get(http, base + "/");
      assertTrue(page.contains("<td class=\"l\">app-http</td>"), page);
      assertTrue(page.contains("http-equiv=\"refresh\""), page);
    }
  }

  @Test
  void withATokenThePagesAnswerOnlyRequestsThatCarryIt() throws Exception {
    start(Map.of(CoordinatorConf.HTTP_TOKEN.name(), "s3cret-token"));
    HttpClient http = HttpClient.newHttpClient();
    for (String path : List.of("/status", "/metrics", "/")) {
      URI url = URI.create("http://127.0.0.1:" + server.httpAddress().getPort() + path);
      for (String header : new String[] {null, "Bearer wrong", "s3cret-token"}) {
        HttpRequest.Builder r = HttpRequest.newBuilder(url);
        if (header != null) {
          r.header("Authorization", header);
        }
        HttpResponse<String> refused = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, refused.statusCode(), path + " with " + header);
        assertTrue(!refused.body().contains("scheme"), refused.body());
      }
      HttpResponse<String> ok =
          http.send(
              HttpRequest.newBuilder(url).header("Authorization", "Bearer s3cret-token").build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode(), path);
    }
  }

  @Test
  void aSilentClientIsClosedAndItsApplicationDropped() throws Exception {
    start(Map.of("coflow.coordinator.clientTimeout", "1s"));
    try (CoordinatorClient driver =
        CoordinatorClient.connect(server.address(), "driver", null, WAIT)) {
      register(driver, Shuffle.random("quiet", 1));
      waitFor(() -> server.status().applications().containsKey("quiet"), "registered");
      waitFor(driver::isClosed, "closed by the server");
      waitFor(() -> server.status().applications().isEmpty(), "application dropped");
    }
  }

  private static String get(HttpClient http, String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url);
    return r.body();
  }

  private static void waitFor(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting: " + what);
      }
      Thread.sleep(20);
    }
  }
}
