/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.testbed.TestbedYarn;
import org.coflowshuffle.spark.CoflowSparkConf;
import org.junit.jupiter.api.Test;

class TerasortYarnCommandTest {

  @Test
  void defaultsAreThePapersShapeWithAllThreeRuns() {
    TerasortYarnCommand.Bench b = TerasortYarnCommand.parse(new String[0]);
    assertEquals("rpc-fig4", b.profile());
    assertEquals(6, b.hosts());
    assertEquals(
        List.of("stock", "rates-only", "rpc"),
        b.runs().stream().map(TerasortRuns.Variant::name).toList());
    assertTrue(b.terasort().mixed(), "jobs of three sizes");
    assertEquals(6, b.terasort().reducers(), "one reducer per host");
    assertEquals(6, b.terasort().cores(), "free slots to place reducers on");
    assertEquals(4, b.mbit(), "links that bind, not the machine's CPU");
    assertEquals(120_000_000L, b.terasort().bytes());
    assertEquals(6, b.inputHosts(), "the input stored on every host, as HDFS spreads it");
    assertEquals(null, b.localityWait(), "Spark's own");
  }

  @Test
  void optionsAndBadRuns() {
    TerasortYarnCommand.Bench b =
        TerasortYarnCommand.parse(
            new String[] {
              "--runs", "rpc,stock", "--input-hosts", "3", "--hosts", "4", "--locality-wait", "10"
            });
    assertEquals(
        List.of("rpc", "stock"),
        b.runs().stream().map(TerasortRuns.Variant::name).toList(),
        "in the order given");
    assertEquals(3, b.inputHosts());
    assertEquals(
        0,
        TerasortYarnCommand.parse(new String[] {"--input-hosts", "0"}).inputHosts(),
        "stored on no host: read on any free core");
    assertThrows(
        IllegalArgumentException.class,
        () -> TerasortYarnCommand.parse(new String[] {"--input-hosts", "7"}),
        "more than the testbed's hosts");
    assertEquals("10000ms", b.localityWait(), "Spark reads whole numbers only");
    assertThrows(
        IllegalArgumentException.class,
        () -> TerasortYarnCommand.parse(new String[] {"--locality-wait", "-1"}));
    assertEquals(8, TerasortYarnCommand.parse(new String[] {"--cores", "8"}).terasort().cores());
    TerasortYarnCommand.Bench two =
        TerasortYarnCommand.parse(
            new String[] {"--executors-per-host", "2", "--hosts", "4", "--cores", "2"});
    assertEquals(2, two.executorsPerHost());
    assertEquals(8, two.terasort().executors(), "executors in all");
    assertEquals(4, two.terasort().reducers(), "still one reducer per host by default");
    assertThrows(
        IllegalArgumentException.class,
        () ->
            TerasortYarnCommand.parse(new String[] {"--executors-per-host", "3", "--cores", "3"}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TerasortYarnCommand.parse(new String[] {"--cores", "9"}),
        "more than a NodeManager offers");
    assertEquals(4, b.terasort().reducers(), "one per host");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TerasortYarnCommand.parse(new String[] {"--runs", "stock,fast"}));
    assertTrue(e.getMessage().startsWith("--runs"), e.getMessage());
    TerasortRuns.Variant fair =
        TerasortYarnCommand.parse(new String[] {"--runs", "fair"}).runs().get(0);
    assertEquals("fair", fair.pluginConf().get(TerasortCommand.SCHEME_KEY), "the paper's baseline");
    TerasortYarnCommand.Bench strict =
        TerasortYarnCommand.parse(new String[] {"--not-work-conserving"});
    assertEquals(null, strict.runs().get(0).pluginConf(), "stock stays stock");
    assertEquals(
        "false", strict.runs().get(2).pluginConf().get(CoflowSparkConf.WORK_CONSERVING.name()));
  }

  @Test
  void settingsItPassesNameThePluginsKeys() {
    assertEquals(CoflowSparkConf.PLACEMENT.name(), TerasortYarnCommand.PLACEMENT_KEY);
    assertTrue(TestbedYarn.serviceConf().containsKey(CoflowSparkConf.SHUFFLE_SERVICE_PORT.name()));
    assertEquals(
        "false",
        TerasortYarnCommand.VARIANTS.get(1).pluginConf().get(CoflowSparkConf.PLACEMENT.name()));
  }

  @Test
  void liveAgainstTheModelIsTheTimeUntilTheBytesOverTheNetworkWereIn() {
    ObjectMapper json = new ObjectMapper();
    ObjectNode rpc = json.createObjectNode().put("valid", true).put("modelCct", 10.0);
    ArrayNode jobs = rpc.putArray("jobs");
    for (double network : new double[] {9, 13}) {
      jobs.addObject()
          .put("shuffleSeconds", network + 5)
          .put("fetchSeconds", network + 3) // read and sorted after the bytes are in
          .put("networkFetchSeconds", network)
          .put("jobSeconds", network + 9)
          .put("reduceTasks", 6)
          .put("placedTasksMatched", 6)
          .put("reduceHosts", "{}");
    }
    ((ObjectNode) jobs.get(0)).putArray("shuffles").addObject().put("modelSeconds", 8.0);
    ArrayNode twoStages = ((ObjectNode) jobs.get(1)).putArray("shuffles");
    twoStages.addObject().put("modelSeconds", 11.0);
    twoStages.addObject().put("modelSeconds", 13.0);
    ObjectNode s = TerasortYarnCommand.summary(json, Map.of("rpc", rpc));
    assertEquals("[9.0,13.0]", s.get("rpc").get("networkFetchCcts").toString(), "per job, live");
    assertEquals("[8.0,12.0]", s.get("rpc").get("modelCcts").toString(), "a job's stages' mean");
    assertEquals(14.0, s.get("rpc").get("averageFetchCct").asDouble());
    assertEquals(11.0, s.get("rpc").get("averageNetworkFetchCct").asDouble());
    assertEquals(1.1, s.get("rpc").get("liveOverModel").asDouble(), 1e-12);
    ((ObjectNode) jobs.get(1)).remove("networkFetchSeconds"); // a standalone coordinator, say
    s = TerasortYarnCommand.summary(json, Map.of("rpc", rpc));
    assertTrue(s.get("rpc").path("liveOverModel").isMissingNode(), "not against the sorted read");
    assertTrue(s.get("rpc").path("networkFetchCcts").isMissingNode());
    assertEquals(10.0, s.get("rpc").get("modelCct").asDouble());
  }
}
