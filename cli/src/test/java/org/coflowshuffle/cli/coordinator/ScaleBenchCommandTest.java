/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.coflowshuffle.cli.Ran;
import org.junit.jupiter.api.Test;

class ScaleBenchCommandTest {

  @Test
  void placesOneShuffleThroughBothPathsAndReportsTheWorseOfEach() throws Exception {
    Ran r =
        Ran.of(
            new ScaleBenchCommand()::run,
            "--maps",
            "300",
            "--reducers",
            "200",
            "--hosts",
            "7",
            "--cores",
            "2",
            "--json");
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().strip().split("\n");
    JsonNode json = new ObjectMapper().readTree(lines[lines.length - 1]);
    assertEquals(300, json.get("maps").asInt());
    assertEquals(200, json.get("reducers").asInt());
    assertEquals(7, json.get("hosts").asInt());
    for (String figure : new String[] {"retainedHeapBytes", "ingestSeconds", "placeSeconds"}) {
      double embedded = json.get("embedded").get(figure).asDouble();
      double service = json.get("service").get(figure).asDouble();
      assertEquals(Math.max(embedded, service), json.get(figure).asDouble(), 1e-9, figure);
    }
    assertTrue(json.get("service").get("placeSeconds").asDouble() > 0, r.out());
    assertTrue(r.out().contains("embedded") && r.out().contains("service"), r.out());
  }

  @Test
  void refusesANonPositiveCount() {
    Ran r = Ran.of(new ScaleBenchCommand()::run, "--maps", "0");
    assertEquals(2, r.status());
    assertTrue(r.err().startsWith("coflow bench scale: "), r.err());
  }
}
