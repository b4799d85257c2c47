/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.spark.app.RepeatedJobsApp;
import org.junit.jupiter.api.Test;

/**
 * A long-running application: 100 small jobs in one SparkContext with the plugin, on {@code
 * local-cluster} by {@code spark-submit}. What the driver and the executors hold (threads, open
 * file descriptors, the plugin's collections) does not grow from job to job.
 */
class RepeatedJobsIT {

  private static final int JOBS = 100;
  private static final int EVERY = 10;

  /** Threads and descriptors may move by a few (Spark's own pools settle); they may not grow. */
  private static final int THREAD_SLACK = 4;

  private static final int FD_SLACK = 10;

  @Test
  void aHundredJobsInOneContextLeaveNothingGrowing() throws Exception {
    DifferentialRuns runs = DifferentialRuns.get();
    Path result = runs.work.resolve("repeated-jobs.json");
    runs.submit(
        RepeatedJobsApp.class.getName(),
        "repeated-jobs",
        DifferentialRuns.plugin(
            Map.of(
                "spark.ui.port", "0",
                "spark.metrics.conf.*.sink.prometheusServlet.class",
                    "org.apache.spark.metrics.sink.PrometheusServlet",
                "spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus",
                // as on a real cluster: fetches cross the network, through the paced transport
                "spark.shuffle.readHostLocalDisk", "false")),
        true,
        List.of(result.toString(), String.valueOf(JOBS), String.valueOf(EVERY)));
    JsonNode run = new ObjectMapper().readTree(result.toFile());
    assertTrue(run.get("results").asBoolean(), "every job's answer was right");
    JsonNode samples = run.get("samples");
    assertEquals(JOBS / EVERY, samples.size());
    JsonNode early = samples.get(1); // after 20 jobs: Spark's pools have started
    JsonNode last = samples.get(samples.size() - 1);

    JsonNode d0 = early.get("driver");
    JsonNode d1 = last.get("driver");
    for (String part :
        List.of(
            "coordinatorShuffles",
            "placerShuffles",
            "listenerStages",
            "pacedEndpoints",
            "orderEndpoints",
            "pendingOrders")) {
      assertTrue(d1.has(part), "the plugin ran in the driver: " + d1);
      assertTrue(
          d1.get(part).asInt() <= Math.max(d0.get(part).asInt(), 6),
          "driver " + part + " grew: " + d0 + " then " + d1);
    }
    assertTrue(d1.get("listenerStages").asInt() <= 2, "skipped stages are dropped: " + d1);
    assertNotGrowing("driver", d0, d1);

    JsonNode e0 = early.get("executors");
    JsonNode e1 = last.get("executors");
    assertEquals(2, e1.size(), "both executors answered: " + e1);
    e1.fieldNames()
        .forEachRemaining(
            id -> {
              JsonNode before = e0.get(id);
              JsonNode after = e1.get(id);
              assertTrue(after.has("pacedConnections"), "paced fetch installed: " + after);
              assertEquals(0, after.get("activeFlows").asInt(), "no flow left open: " + after);
              assertEquals(0, after.get("unpacedShuffles").asInt(), after.toString());
              assertTrue(
                  after.get("prefetchedReducers").asInt()
                      <= Math.max(6, before.get("prefetchedReducers").asInt()),
                  "what was fetched ahead of tasks goes with its shuffle: "
                      + before
                      + " then "
                      + after);
              assertTrue(
                  after.get("pacedConnections").asInt()
                      <= Math.max(2, before.get("pacedConnections").asInt()),
                  "executor " + id + " paced connections grew: " + before + " then " + after);
              assertNotGrowing("executor " + id, before, after);
            });
    assertTrue(runs.pacedBytes(run) > 0, "the jobs' remote blocks were fetched paced");

    // Spark's Prometheus servlet shows the plugin's metrics: each job read two shuffles, then one
    // again (its first two stages skipped), so three coflows per job.
    String prometheus = run.get("prometheus").asText();
    assertEquals(3.0 * JOBS, metric(prometheus, "coflows_completed_Count"), prometheus);
    assertEquals(3.0 * JOBS, metric(prometheus, "coflows_cctMillis_Count"), prometheus);
    assertEquals(0, metric(prometheus, "coflows_active_Number"), prometheus);
    assertEquals(0, metric(prometheus, "placements_keptSpark_Count"), prometheus);
    assertTrue(metric(prometheus, "bytes_paced_Number") > 0, prometheus);
    // a gauge per machine the flows crossed, each way, planned and delivered: 0 once all ended
    assertTrue(
        prometheus
            .lines()
            .anyMatch(l -> l.contains("CoflowPlugin_hosts_") && l.contains("_in_delivered_")),
        prometheus);
    // 3 + 2 reduce tasks the first time, 2 the second: all placed, nearly all run there.
    double placed = metric(prometheus, "placements_tasks_Count");
    assertEquals(7.0 * JOBS, placed, prometheus);
    assertTrue(
        metric(prometheus, "placements_tasksWherePlaced_Count") >= 0.95 * placed, prometheus);
    // Each shuffle placed once; the second read of the second may be placed again.
    double decisions = metric(prometheus, "placements_decisionMicros_Count");
    assertTrue(decisions >= 2.0 * JOBS && decisions <= 3.0 * JOBS, prometheus);
  }

  /** The value of the plugin's metric whose name ends so, in Prometheus text. */
  private static double metric(String text, String suffix) {
    return text.lines()
        .filter(l -> l.contains("CoflowPlugin_" + suffix))
        .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric ending " + suffix));
  }

  private static void assertNotGrowing(String who, JsonNode before, JsonNode after) {
    assertTrue(
        after.get("threads").asInt() <= before.get("threads").asInt() + THREAD_SLACK,
        who + " threads grew: " + before + " then " + after);
    assertTrue(
        after.get("fds").asInt() <= before.get("fds").asInt() + FD_SLACK,
        who + " file descriptors grew: " + before + " then " + after);
  }
}
