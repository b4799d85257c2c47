/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.coflowshuffle.it.DifferentialRuns.allQueries;
import static org.coflowshuffle.it.DifferentialRuns.assertPlaced;
import static org.coflowshuffle.it.DifferentialRuns.plugin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plugin, built for Spark 4.1, on other Spark releases from PyPI, an older and a newer one: the
 * version guard checks at start that the scheduler methods it weaves exist with the shapes it
 * expects (on these they do), each executor that what its paced sender reads through does, and the
 * jobs give stock results either way. {@link SparkPluginIT} covers 4.1.
 */
class SparkVersionsIT {

  @Test
  void onSpark40TheGuardPassesAndReducersArePlacedAndPaced() throws Exception {
    DifferentialRuns runs = DifferentialRuns.release("4.0.5");
    JsonNode run = placedAsOnSpark41(runs, "4.0.5");
    assertTrue(runs.pacedBytes(run) > 1_000_000, "remote shuffle blocks were paced");
  }

  @Test
  void onSpark43ReducersArePlacedAndFetchesLeftToSparkWithOneLine() throws Exception {
    // Spark 4.3 changed ShuffleManager.shuffleBlockResolver(), which the paced sender reads the
    // shuffle files through: each executor says so once and keeps Spark's transport.
    DifferentialRuns runs = DifferentialRuns.release("4.3.0");
    JsonNode run = placedAsOnSpark41(runs, "4.3.0");
    assertEquals(0, runs.pacedBytes(run), "nothing fetched paced");
    String line =
        "coflow: shuffle fetches are not paced: this Spark (4.3.0) is not the one the plugin is"
            + " built for";
    long executors =
        runs.executorLines(run.get("applicationId").asText()).stream()
            .filter(l -> l.contains(line))
            .count();
    assertEquals(2, executors, "one line per executor");
  }

  /** Runs the plugin there: stock results, the scheduler's guard passed, every query placed. */
  private static JsonNode placedAsOnSpark41(DifferentialRuns runs, String version)
      throws Exception {
    JsonNode run =
        runs.run("plugin", plugin(Map.of("spark.shuffle.readHostLocalDisk", "false")), true);
    runs.assertSameResults(run, "plugin on Spark " + version);
    String log = Files.readString(runs.log("plugin"));
    assertTrue(log.contains("coflow: reducers are placed by scheme rpc"), "the guard passed");
    assertFalse(log.contains("coflow: Spark places reducers itself"), "no guard line");
    assertPlaced(run, allQueries());
    return run;
  }
}
