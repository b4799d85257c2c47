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
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code coflow bench faults}, every scenario, on real YARN on the testbed (needs root, as CI has):
 * each terasort validates and none hangs; the NodeManager restarted with recovery costs no map
 * output, the coordinator's faults none either, and a lost executor or cut-off host is recomputed.
 * A heavy drill (about seven minutes on a 2-core VM): {@code -Dcoflow.drills=false} skips it.
 */
@EnabledIfSystemProperty(named = "coflow.drills", matches = "true")
class FaultDrillIT {

  @Test
  void everyScenarioValidatesAndNoneHangs() throws Exception {
    Path root = Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
    System.setProperty("coflow.home", root.toString());
    Path work = root.resolve("integration-tests/target/it-work/faults");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new FaultsBenchCommand()
            .run(
                new String[] {"--json", "--work", work.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                System.in);
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.print(text); // the drill's table, for the build log
    String why = text + err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, why);
    List<String> lines = text.lines().toList();
    JsonNode scenarios = new ObjectMapper().readTree(lines.get(lines.size() - 1)).get("scenarios");
    assertEquals(FaultsBenchCommand.SCENARIOS.size(), scenarios.size(), why);
    for (String name : FaultsBenchCommand.SCENARIOS) {
      JsonNode s = scenarios.get(name);
      assertTrue(s.get("valid").asBoolean(), name + " validated: " + why);
      assertTrue(s.get("seconds").asDouble() < 600, name + " ended in minutes: " + why);
      assertEquals(0, s.get("heldFetches").asInt(), name + ": no fetch held to its limit: " + why);
    }
    for (String none :
        List.of("nodemanager-restarted", "coordinator-killed", "coordinator-stalled")) {
      assertEquals(0, scenarios.get(none).get("recomputedMapTasks").asInt(), none + ": " + why);
    }
    for (String lost : List.of("executor-killed", "sender-blackholed")) {
      assertTrue(scenarios.get(lost).get("recomputedMapTasks").asInt() > 0, lost + ": " + why);
    }
  }
}
