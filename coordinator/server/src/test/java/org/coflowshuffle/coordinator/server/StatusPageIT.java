/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.Test;

/**
 * The status page in a real browser (headless Chromium, installed with apt-get on first use as
 * root, as CI runs): it renders the coflows of two applications, and a screenshot lands in {@code
 * target/coordinator-status.png} (the one in docs/img comes from this test).
 */
class StatusPageIT {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void thePageShowsEveryApplicationsCoflowsInABrowser() throws Exception {
    String chromium = chromium();
    try (CoordinatorServer server =
            CoordinatorServer.start(
                CoordinatorConf.from(
                    Map.of(
                        "coflow.coordinator.port", "0",
                        "coflow.coordinator.httpPort", "0",
                        "coflow.coordinator.hostBandwidth", "h0=50m,h1=100m,h2=100m,h3=200m")));
        CoordinatorClient etl = CoordinatorClient.connect(server.address(), "etl", null, WAIT);
        CoordinatorClient report =
            CoordinatorClient.connect(server.address(), "report", null, WAIT)) {
      fetching(etl, "application_1700000000000_0007", 0, 400_000_000L);
      fetching(report, "application_1700000000000_0012", 4, 60_000_000L);
      String url = "http://127.0.0.1:" + server.httpAddress().getPort() + "/";

      String dom = run(chromium, "--dump-dom", url);
      assertTrue(dom.contains("<h1>coflow coordinator</h1>"), dom);
      assertTrue(dom.contains("application_1700000000000_0007"), dom);
      assertTrue(dom.contains("application_1700000000000_0012"), dom);
      assertEquals(2 * 3, dom.split("<tr>", -1).length - 1, dom); // two tables: header, 2 rows

      Path png = Path.of("target", "coordinator-status.png").toAbsolutePath();
      Files.deleteIfExists(png);
      run(chromium, "--screenshot=" + png, "--window-size=1200,420", url);
      byte[] image = Files.readAllBytes(png);
      assertTrue(image.length > 5_000, "a blank page: " + image.length + " bytes");
      assertEquals((byte) 0x89, image[0]);
      assertEquals('P', image[1]);
    }
  }

  /** Registers an application with one shuffle placed and all its network flows fetching. */
  private static void fetching(CoordinatorClient c, String app, int shuffle, long scale)
      throws IOException {
    c.send(new Message.RegisterApp(app));
    List<Message.ExecutorInfo> executors = new ArrayList<>();
    for (int e = 0; e < 4; e++) {
      executors.add(new Message.ExecutorInfo(String.valueOf(e), "h" + e, 2));
    }
    c.send(new Message.Executors(app, executors));
    c.send(new Message.RegisterShuffle(app, shuffle, 4, 4));
    for (int m = 0; m < 4; m++) {
      long[] bytes = {scale / (m + 1), scale / 3, scale / (4 - m), scale / 5};
      c.send(new Message.MapOutput(app, shuffle, m, "h" + m, String.valueOf(m), bytes));
    }
    c.send(new Message.PlacementRequest(app, 1, new int[] {shuffle}));
    Message.Placement p = c.await(Message.Placement.class, WAIT);
    for (int r = 0; r < 4; r++) {
      String at = p.reducers().get(r).executor();
      for (int m = 0; m < 4; m++) {
        if (!String.valueOf(m).equals(at)) {
          c.send(new Message.RateRequest(app, shuffle, r, String.valueOf(m), at));
        }
      }
    }
    c.send(
        new Message.Progress(
            app, shuffle, 0, p.reducers().get(0).executor().equals("1") ? "0" : "1", scale / 8));
    c.send(new Message.Ping(1));
    c.await(Message.Pong.class, WAIT);
  }

  private static String run(String chromium, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium did not finish");
    assertEquals(0, p.exitValue(), "chromium " + args[0]);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Chromium's path, installing Debian's package first when it is missing. */
  private static String chromium() throws Exception {
    for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
        if (Files.isExecutable(Path.of(dir, name))) {
          return Path.of(dir, name).toString();
        }
      }
    }
    Process p =
        new ProcessBuilder("apt-get", "install", "-y", "-q", "chromium")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(p.waitFor(15, TimeUnit.MINUTES), "apt-get install chromium took too long");
    assertEquals(0, p.exitValue(), "apt-get install chromium failed (needs root, as CI has)");
    return "chromium";
  }
}
