/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.testbed.HostLink;
import org.coflowshuffle.coordinator.live.LinkHeadroom;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Instance;
import org.junit.jupiter.api.Test;

class LayoutModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Two hosts at {@code rate} bytes per second each way. */
  private static Map<String, double[]> links(double rate) {
    Map<String, double[]> links = new LinkedHashMap<>();
    links.put("h1", new double[] {rate, rate});
    links.put("h2", new double[] {rate, rate});
    return links;
  }

  private static JsonNode run(String shuffles) throws Exception {
    return JSON.readTree("{\"jobs\": [{\"shuffles\": [" + shuffles + "]}]}");
  }

  @Test
  void eachReducerReadsFromTheMapHostsInProportionToWhatTheyWrote() throws Exception {
    JsonNode r =
        JSON.readTree(
            """
            {"jobs": [
              {"shuffles": [{"shuffle": 1, "submittedMillis": 3500, "seconds": 9,
                "mapOutput": {"h1": 300, "h2": 100},
                "reducers": [{"partition": 0, "host": "h1", "bytes": 400},
                             {"partition": 1, "host": "h2", "bytes": 800}]}]},
              {"shuffles": [{"shuffle": 0, "submittedMillis": 1000, "seconds": 5,
                "mapOutput": {"h2": 10},
                "reducers": [{"partition": 0, "host": "h1", "bytes": 10}]}]}
            ]}
            """);
    Instance m = LayoutModel.instance(r, links(100));
    assertEquals(List.of("h1", "h2"), m.hosts().stream().map(h -> h.id()).toList());
    Coflow later = m.coflows().get(0);
    assertEquals(2.5, later.arrival(), 1e-9, "seconds after the first stage was submitted");
    assertEquals(0, m.coflows().get(1).arrival());
    assertEquals(0, later.reducers().get(0).pinnedHost(), "where the task ran");
    assertEquals(1, later.reducers().get(1).pinnedHost());
    double[][] bytes = new double[2][2]; // [reducer][source host]
    later.flows().forEach(f -> bytes[f.reducer()][f.src()] += f.bytes());
    assertArrayEquals(new double[] {300, 100}, bytes[0], 1e-9, "3:1, as the map hosts wrote");
    assertArrayEquals(new double[] {600, 200}, bytes[1], 1e-9);
  }

  @Test
  void theModelsCctIsTheBytesOverTheLinkAndNothingForLocalReads() throws Exception {
    JsonNode remote =
        run(
            """
            {"shuffle": 0, "submittedMillis": 0, "seconds": 30, "mapOutput": {"h1": 1000},
             "reducers": [{"partition": 0, "host": "h2", "bytes": 1000}]}
            """);
    assertArrayEquals(new double[] {10}, LayoutModel.ccts(remote, links(100), "rpc", true), 1e-6);
    JsonNode local =
        run(
            """
            {"shuffle": 0, "submittedMillis": 0, "seconds": 3, "mapOutput": {"h1": 1000},
             "reducers": [{"partition": 0, "host": "h1", "bytes": 1000}]}
            """);
    assertArrayEquals(new double[] {0}, LayoutModel.ccts(local, links(100), "rpc", true), 1e-9);
  }

  @Test
  void eachStagesCctIsInTheOrderTheRunListsItsStages() throws Exception {
    JsonNode r =
        JSON.readTree(
            """
            {"jobs": [
              {"shuffles": [{"shuffle": 1, "submittedMillis": 2000, "seconds": 20,
                "mapOutput": {"h1": 1000},
                "reducers": [{"partition": 0, "host": "h2", "bytes": 1000}]}]},
              {"shuffles": [{"shuffle": 0, "submittedMillis": 0, "seconds": 9,
                "mapOutput": {"h2": 500},
                "reducers": [{"partition": 0, "host": "h1", "bytes": 500}]}]}
            ]}
            """);
    // h1 to h2 and h2 to h1: no link in common, each stage alone on its links
    assertArrayEquals(new double[] {10, 5}, LayoutModel.ccts(r, links(100), "rpc", true), 1e-6);
  }

  @Test
  void aHostTheLinksDoNotNameOrNoStageIsAClearError() throws Exception {
    JsonNode elsewhere =
        run(
            """
            {"shuffle": 0, "submittedMillis": 0, "seconds": 1, "mapOutput": {"h9": 1},
             "reducers": [{"partition": 0, "host": "h1", "bytes": 1}]}
            """);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> LayoutModel.instance(elsewhere, links(1)));
    assertEquals("a task ran on h9, not a host of the model", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LayoutModel.instance(run(""), links(1)));
  }

  @Test
  void theBackgroundTakesItsShareOfTheLinkItLoads() {
    var hosts =
        List.of(
            new HostLink("h1", "ns1", "10.77.0.11", 4, 4),
            new HostLink("h2", "ns2", "10.77.0.12", 2, 2));
    Map<String, double[]> links =
        TerasortYarnCommand.modelLinks(hosts, new TerasortYarnCommand.Background("h1", 1));
    double both = LinkHeadroom.BOTH_WAYS; // the payload a link loaded both ways carries each way
    assertArrayEquals(
        new double[] {356_250 * both, 475_000 * both}, links.get("h1"), 1e-6, "3 of 4 Mbit/s in");
    assertArrayEquals(new double[] {237_500 * both, 237_500 * both}, links.get("h2"), 1e-6);
  }
}
