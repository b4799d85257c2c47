/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.coflowshuffle.it.DifferentialRuns.allQueries;
import static org.coflowshuffle.it.DifferentialRuns.assertPlaced;
import static org.coflowshuffle.it.DifferentialRuns.plugin;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plugin, built for Spark 4.1, on another Spark release from PyPI: the version guard checks at
 * start that the scheduler methods it weaves exist with the shapes it expects, and the job gives
 * stock results either way. {@link SparkPluginIT} covers 4.1.
 */
class SparkVersionsIT {

  @Test
  void onSpark40TheGuardPassesAndReducersArePlacedAndPaced() throws Exception {
    DifferentialRuns runs = DifferentialRuns.release("4.0.5");
    JsonNode run =
        runs.run("plugin", plugin(Map.of("spark.shuffle.readHostLocalDisk", "false")), true);
    runs.assertSameResults(run, "plugin on Spark 4.0.5");
    String log = Files.readString(runs.log("plugin"));
    assertTrue(log.contains("coflow: reducers are placed by scheme rpc"), "the guard passed");
    assertTrue(!log.contains("is not the one the plugin is built for"), "no guard line");
    assertTrue(runs.pacedBytes(run) > 1_000_000, "remote shuffle blocks were paced");
    assertPlaced(run, allQueries());
  }
}
