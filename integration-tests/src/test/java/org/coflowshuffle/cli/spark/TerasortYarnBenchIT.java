/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code coflow bench terasort-yarn} end to end, small: the testbed in the paper's shape, real
 * YARN, three runs of three concurrent terasorts each (needs root, as CI has). Checks what the
 * command promises, not how fast: performance is measured by hand (docs/results.md).
 */
class TerasortYarnBenchIT {

  @Test
  void runsStockRatesOnlyAndRpcAndEndsWithTheSummaryLine() throws Exception {
    Path root = Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
    System.setProperty("coflow.home", root.toString());
    Path work = root.resolve("integration-tests/target/it-work/bench-yarn");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new TerasortYarnCommand()
            .run(
                new String[] {
                  "--size",
                  "30m",
                  "--mbit",
                  "200",
                  "--cores",
                  "1",
                  "--json",
                  "--work",
                  work.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                System.in);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
    List<String> lines = text.lines().toList();
    JsonNode summary = new ObjectMapper().readTree(lines.get(lines.size() - 1));
    assertTrue(summary.get("valid").asBoolean(), "every output validated: " + summary);
    for (String run : List.of("stock", "rates-only", "rpc")) {
      assertTrue(summary.get(run).get("averageCct").asDouble() > 0, run);
      assertTrue(summary.get(run).get("averageJobTime").asDouble() > 0, run);
      assertTrue(summary.get(run).get("averageFetchCct").asDouble() > 0, run);
      assertEquals(3, summary.get(run).get("reduceHosts").size(), run + ": hosts of each job");
    }
    for (String run : List.of("rates-only", "rpc")) { // paced, and the model of its own layout
      assertTrue(summary.get(run).get("modelCct").asDouble() > 0, run + ": " + summary);
      assertTrue(summary.get(run).get("liveOverModel").asDouble() > 0, run + ": " + summary);
      for (String perJob : List.of("modelCcts", "networkFetchCcts")) {
        JsonNode ccts = summary.get(run).get(perJob);
        assertEquals(3, ccts.size(), run + ": " + perJob + " of each job: " + summary);
        ccts.forEach(c -> assertTrue(c.asDouble() > 0, run + ": " + perJob + ": " + summary));
      }
      double network = summary.get(run).get("averageNetworkFetchCct").asDouble();
      assertTrue(
          network > 0 && network <= summary.get(run).get("averageFetchCct").asDouble() + 1,
          run + ": the bytes are in before the reducers have read and sorted them: " + summary);
      assertTrue(
          summary.get(run).get("peakLinkUse").asDouble() > 0,
          run + ": the coordinator planned its flows' rates: " + summary);
    }
    double match = summary.get("placementMatch").asDouble();
    assertTrue(match > 0 && match <= 1, "placement match " + match);
    assertTrue(text.contains("job 2: {\"h"), "reduce-task hosts printed:\n" + text);
  }
}
