/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.coflowshuffle.cli.spark.SparkHistoryServer;
import org.coflowshuffle.cli.spark.app.RepeatedJobsApp;
import org.coflowshuffle.cli.spark.app.TerasortApp;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees of a plugin application: the Coflows tab, live in the driver's Spark UI and
 * in Spark's History Server replaying the application's event log (the same coflows, each with its
 * CCT, its reduce tasks' hosts and how many ran where placed, and a page of its own), and the
 * executors' metrics in their sinks.
 */
class ObservabilityIT {

  private static final int JOBS = 2;

  /** Each job reads two shuffles, then reads the second again (the first stage is skipped). */
  private static final int COFLOWS_PER_JOB = 3;

  private static final Pattern ROW =
      Pattern.compile(
          "<tr data-stage=\"(\\d+)\">.*?<td class=\"cct\">([0-9.]+)</td>.*?"
              + "<td class=\"hosts\">([^<]+)</td><td class=\"placed\">(\\d+) of (\\d+)</td>");

  @Test
  void eachCoflowIsShownLiveAndInTheHistoryServerAndExecutorsCountWhatTheyFetched()
      throws Exception {
    DifferentialRuns runs = DifferentialRuns.get();
    Path logs = runs.work.resolve("event-logs");
    clear(logs); // an earlier run's logs would be listed too
    Path csv = runs.work.resolve("executor-metrics");
    clear(csv);
    Path result = runs.work.resolve("coflows-tab.json");
    runs.submit(
        RepeatedJobsApp.class.getName(),
        "coflows-tab",
        DifferentialRuns.plugin(
            Map.of(
                "spark.ui.port", "0",
                "spark.eventLog.enabled", "true",
                "spark.eventLog.dir", logs.toUri().toString(),
                "spark.metrics.conf.executor.sink.csv.class",
                    "org.apache.spark.metrics.sink.CsvSink",
                "spark.metrics.conf.executor.sink.csv.period", "1",
                "spark.metrics.conf.executor.sink.csv.unit", "seconds",
                "spark.metrics.conf.executor.sink.csv.directory", csv.toString(),
                "spark.shuffle.readHostLocalDisk", "false")),
        true,
        List.of(result.toString(), String.valueOf(JOBS), String.valueOf(JOBS)));
    JsonNode run = new ObjectMapper().readTree(result.toFile());
    assertTrue(run.get("results").asBoolean(), "every job's answer was right");
    String live = run.get("coflowsTab").asText();
    List<String> liveRows = rows(live);
    assertEquals(JOBS * COFLOWS_PER_JOB, liveRows.size(), live);

    String app = run.get("applicationId").asText();
    try (SparkHistoryServer history =
        SparkHistoryServer.start(
            runs.spark, runs.jars.plugin(), logs, 0, runs.work.resolve("history-server.log"))) {
      String page = awaitRows(history.url() + "/history/" + app + "/coflows/");
      assertEquals(liveRows, rows(page), "the History Server shows what the live UI showed");
      Matcher link =
          Pattern.compile("href=\"([^\"]*/coflows/coflow/\\?id=[0-9.]+)\"").matcher(page);
      assertTrue(link.find(), page);
      String one = get(history.url() + link.group(1));
      assertTrue(one.contains("<table id=\"hosts\""), one);
      assertTrue(one.contains("ran where placed"), one);
      assertTrue(one.contains("<table id=\"rates\""), one);
      assertTrue(
          one.contains("<tr data-host=\""), "rates of the machines its flows crossed: " + one);
    }

    // Each executor's sink has its paced bytes; together, what the driver counted.
    long executors = 0;
    long flowsTimed = 0;
    try (Stream<Path> files = Files.list(csv)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith("CoflowPlugin.bytes.paced.csv")) { // t,value
          executors += Long.parseLong(lastRow(f)[1].trim());
        } else if (name.endsWith("CoflowPlugin.flows.startMillis.csv")) { // t,count,max,...
          flowsTimed += Long.parseLong(lastRow(f)[1].trim());
        }
      }
    }
    assertEquals(runs.pacedBytes(run), executors, "bytes fetched paced, executors against driver");
    assertTrue(flowsTimed > 0, "the executors' sinks time the starts of their paced flows");
  }

  /** The columns of a CSV sink's last row. */
  private static String[] lastRow(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    return lines.get(lines.size() - 1).split(",");
  }

  /**
   * A terasort with the plugin, held at its end while headless Chromium renders its Coflows tab,
   * then replayed by the History Server and rendered again: every stage that read a shuffle (as
   * Spark's own REST API lists them) is a row with its CCT and the hosts its reduce tasks ran on,
   * and the sort's page draws its machines' rates. The screenshots land in {@code
   * target/screenshots} (those of the docs are these).
   */
  @Test
  void aTerasortsShuffleStagesShowInABrowserLiveAndInTheHistoryServer() throws Exception {
    DifferentialRuns runs = DifferentialRuns.get();
    HeadlessChromium chromium = HeadlessChromium.find(runs.work);
    Path dir = runs.work.resolve("terasort-tab");
    clear(dir);
    Path logs = Files.createDirectories(dir.resolve("event-logs"));
    Path shots = runs.root.resolve("integration-tests/target/screenshots");
    Path gen = dir.resolve("gen.json");
    runs.submit(
        TerasortApp.class.getName(),
        "terasort-tab-gen",
        Map.of("spark.ui.enabled", "false"),
        false,
        List.of("gen", dir + "/in", "400000", "4", gen.toString()));
    Path hold = dir.resolve("hold");
    Map<String, String> conf =
        DifferentialRuns.plugin(
            Map.of(
                "spark.ui.port", "0",
                "spark.eventLog.enabled", "true",
                "spark.eventLog.dir", logs.toUri().toString(),
                "spark.shuffle.readHostLocalDisk", "false",
                "spark.driver.extraJavaOptions", "-Dcoflow.hold=" + hold));
    List<String> sort =
        List.of(
            "sort",
            dir + "/in",
            dir + "/out",
            "1",
            "4",
            gen.toString(),
            dir.resolve("sort.json").toString(),
            "plugin");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> job =
          pool.submit(
              () -> {
                runs.submit(TerasortApp.class.getName(), "terasort-tab", conf, true, sort);
                return null;
              });
      String[] held = DifferentialRuns.awaitHold(hold, job, runs.log("terasort-tab")).split(" ");
      String app = held[0];
      String ui = held[1];
      JsonNode stages =
          new ObjectMapper().readTree(get(ui + "/api/v1/applications/" + app + "/stages"));
      Set<String> shuffleStages = new TreeSet<>();
      for (JsonNode st : stages) {
        if (st.get("status").asText().equals("COMPLETE")
            && st.get("shuffleReadRecords").asLong() > 0) {
          shuffleStages.add(st.get("stageId").asText());
        }
      }
      assertTrue(!shuffleStages.isEmpty(), "the sort read a shuffle: " + stages);

      String live = chromium.dom(ui + "/coflows/");
      List<String> liveRows = rows(live);
      assertEquals(shuffleStages, stageIds(liveRows), "a row per shuffle stage: " + live);
      String sortStage = liveRows.get(liveRows.size() - 1).split(" ")[0];
      String page = chromium.dom(ui + "/coflows/coflow/?id=" + sortStage + ".0");
      assertTrue(page.contains("<table id=\"hosts\""), page);
      assertTrue(page.contains("<tr data-host=\""), "its machines' rates: " + page);
      assertTrue(
          page.contains("its bytes over the network in after"), "when they were in: " + page);
      chromium.screenshot(ui + "/coflows/", shots.resolve("coflows-tab.png"), 1280, 900);
      chromium.screenshot(
          ui + "/coflows/coflow/?id=" + sortStage + ".0",
          shots.resolve("coflow-page.png"),
          1280,
          900);
      DifferentialRuns.releaseHold(hold);
      job.get(5, TimeUnit.MINUTES);
      assertTrue(
          new ObjectMapper().readTree(dir.resolve("sort.json").toFile()).get("valid").asBoolean(),
          "the sort's output is valid");

      try (SparkHistoryServer history =
          SparkHistoryServer.start(
              runs.spark, runs.jars.plugin(), logs, 0, dir.resolve("history-server.log"))) {
        String url = history.url() + "/history/" + app + "/coflows/";
        awaitRows(url);
        String replayed = chromium.dom(url);
        assertEquals(liveRows, rows(replayed), "the History Server shows what the live UI showed");
        chromium.screenshot(url, shots.resolve("coflows-tab-history.png"), 1280, 900);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Set<String> stageIds(List<String> rows) {
    Set<String> ids = new TreeSet<>();
    rows.forEach(r -> ids.add(r.split(" ")[0]));
    return ids;
  }

  private static void clear(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> old = Files.walk(dir)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(dir);
  }

  /** Each row as {@code stage cct hosts placed/tasks}, after checking it says something. */
  private static List<String> rows(String html) {
    List<String> out = new ArrayList<>();
    Matcher m = ROW.matcher(html);
    while (m.find()) {
      assertTrue(Double.parseDouble(m.group(2)) > 0, "a CCT: " + m.group());
      assertTrue(m.group(3).contains("×"), "the hosts its reduce tasks ran on: " + m.group());
      assertTrue(Integer.parseInt(m.group(5)) > 0, "its reduce tasks: " + m.group());
      out.add(
          m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(4) + "/" + m.group(5));
    }
    return out;
  }

  /** The page once it shows coflows (the History Server lists new logs every 2 s); 2 minutes. */
  private static String awaitRows(String url) throws Exception {
    long until = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    String page = "";
    while (System.nanoTime() < until) {
      page = get(url);
      if (ROW.matcher(page).find()) {
        return page;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("no coflow at " + url + ": " + page);
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build()
            .send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    return r.statusCode() == 200 ? r.body() : "HTTP " + r.statusCode();
  }
}
