/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.spark.app.TerasortApp;
import org.coflowshuffle.spark.CoflowPlugin;
import org.coflowshuffle.spark.CoflowShuffleManager;
import org.coflowshuffle.spark.CoflowSparkConf;
import org.junit.jupiter.api.Test;

class TerasortCommandTest {

  @Test
  void classNamesItPassesToSparkNameTheRealClasses() {
    assertEquals(TerasortApp.class.getName(), TerasortCommand.APP_CLASS);
    assertEquals(CoflowShuffleManager.class.getName(), TerasortCommand.SHUFFLE_MANAGER);
    assertEquals(CoflowPlugin.NAME, TerasortCommand.PLUGIN);
    assertEquals(CoflowSparkConf.SCHEME.name(), TerasortCommand.SCHEME_KEY);
    assertEquals(CoflowSparkConf.WORK_CONSERVING.name(), TerasortCommand.WORK_CONSERVING_KEY);
  }

  @Test
  void sizesArePowersOfTen() {
    assertEquals(1_000_000_000L, TerasortCommand.bytes("1g"));
    assertEquals(200_000_000L, TerasortCommand.bytes("200M"));
    assertEquals(1_500_000L, TerasortCommand.bytes("1.5m"));
    assertEquals(12_345L, TerasortCommand.bytes("12345"));
    assertThrows(IllegalArgumentException.class, () -> TerasortCommand.bytes("lots"));
    assertThrows(IllegalArgumentException.class, () -> TerasortCommand.bytes("50"));
  }

  @Test
  void byDefaultItSortsOnATestbedOfItsOwnShapedAsThePapers() {
    TerasortCommand.Options o = TerasortCommand.parse(new String[0]);
    assertEquals(TerasortCommand.Where.OWN_TESTBED, o.where());
    assertEquals(1_200_000L, o.rows(), "120 MB");
    assertEquals(3, o.jobs());
    assertTrue(o.mixed(), "jobs of different sizes");
    assertEquals(6, o.executors(), "one executor per host");
    assertEquals(6, o.cores());
    assertEquals(6, o.reducers(), "one reducer per host");
    assertEquals(4, o.mbit());
    assertEquals(5, TerasortCommand.parse(new String[] {"--mbit", "5", "--cores", "2"}).mbit());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TerasortCommand.parse(new String[] {"--executors", "2"}));
    assertTrue(e.getMessage().contains("--local"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> TerasortCommand.parse(new String[] {"--local", "--testbed"}));
  }

  @Test
  void theLocalClusterKeepsItsOwnDefaults() {
    TerasortCommand.Options o = TerasortCommand.parse(new String[] {"--local"});
    assertEquals(TerasortCommand.Where.LOCAL, o.where());
    assertEquals(10_000_000L, o.rows());
    assertEquals(3, o.jobs());
    assertEquals("local-cluster[4,1,1024]", o.master());
    assertEquals(4, o.reducers(), "one reducer per core by default");
    assertEquals(false, o.mixed());
    // the same defaults where the command falls back to it
    assertEquals(o, TerasortCommand.parse(new String[0], TerasortCommand.Where.LOCAL));
    o =
        TerasortCommand.parse(
            new String[] {"--local", "--executors", "2", "--cores", "2", "--json"});
    assertEquals(4, o.reducers());
    assertTrue(o.json());
    assertEquals(null, o.coordinator());
    o = TerasortCommand.parse(new String[] {"--coordinator", "coord.example:7390"});
    assertEquals("coord.example:7390", o.coordinator());
    assertThrows(
        IllegalArgumentException.class,
        () -> TerasortCommand.parse(new String[] {"--coordinator", "coord.example"}));
    o = TerasortCommand.parse(new String[] {"--testbed"});
    assertEquals(TerasortCommand.Where.TESTBED_UP, o.where());
    assertEquals(1, o.cores(), "a testbed made by hand keeps the local defaults");
  }

  @Test
  void confIsRepeatableAndGoesToBothRuns() {
    assertEquals(Map.of(), TerasortCommand.parse(new String[0]).sparkConf());
    TerasortCommand.Options o =
        TerasortCommand.parse(
            new String[] {
              "--conf",
              "spark.authenticate=true",
              "--conf=spark.network.crypto.enabled=true",
              "--conf",
              "spark.authenticate.secret=a=b"
            });
    assertEquals(
        Map.of(
            "spark.authenticate", "true",
            "spark.network.crypto.enabled", "true",
            "spark.authenticate.secret", "a=b"),
        o.sparkConf());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TerasortCommand.parse(new String[] {"--conf", "spark.authenticate"}));
    assertEquals("--conf: expected KEY=VALUE, got \"spark.authenticate\"", e.getMessage());
  }

  @Test
  void runsAreStockThenThePluginUnlessOneIsChosen() {
    assertEquals(List.of("stock", "plugin"), TerasortCommand.runs(new String[0]));
    assertEquals(
        List.of("plugin", "stock"), TerasortCommand.runs(new String[] {"--runs", "plugin,stock"}));
    assertEquals(List.of("plugin"), TerasortCommand.runs(new String[] {"--runs", "plugin"}));
    for (String bad : List.of("plugin,plugin", "rpc", "", "stock,")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> TerasortCommand.runs(new String[] {"--runs", bad}),
              bad);
      assertTrue(e.getMessage().startsWith("--runs: expected stock, plugin or both"), bad);
    }
  }

  @Test
  void theSummaryOfThePluginsRunAloneHasNoStock() {
    ObjectMapper json = new ObjectMapper();
    ObjectNode plugin = json.createObjectNode();
    plugin.put("valid", true);
    plugin.put("allJobsSeconds", 3.0);
    plugin.put("pacedBytes", 42L);
    plugin
        .putArray("jobs")
        .addObject()
        .put("shuffleSeconds", 2.0)
        .put("jobSeconds", 3.0)
        .put("reduceTasks", 4)
        .put("placedTasksMatched", 3);
    ObjectNode s = TerasortCommand.summary(json, null, plugin);
    assertTrue(s.get("valid").asBoolean());
    assertTrue(s.path("stock").isMissingNode(), s.toString());
    assertEquals(2.0, s.get("plugin").get("meanShuffleSeconds").asDouble());
    assertEquals(0.75, s.get("placementMatch").asDouble());
    assertEquals(42L, s.get("pacedBytes").asLong());
    plugin.put("valid", false);
    assertTrue(!TerasortCommand.summary(json, null, plugin).get("valid").asBoolean());
  }

  @Test
  void badArgumentsGiveOneLineAndStatusTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new TerasortCommand()
            .run(
                new String[] {"--scheme", "nope"},
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                System.in);
    assertEquals(2, status);
    String text = err.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("coflow terasort: unknown scheme \"nope\""), text);
  }

  @Test
  void thePacedBytesComeFromTheDriversLastLine() {
    assertEquals(
        123_456L,
        TerasortRuns.pacedBytes(
            List.of(
                "26/11/27 INFO CoflowDriverPlugin: coflow: placed 4 reducers",
                "26/11/27 INFO CoflowDriverPlugin: coflow: 123456 bytes of shuffle blocks fetched"
                    + " paced by 4 executor(s)")));
    assertEquals(0L, TerasortRuns.pacedBytes(List.of("no such line")));
    assertEquals(
        0.998,
        TerasortRuns.peakLinkUse(
            List.of(
                "26/11/27 INFO CoflowDriverPlugin: coflow: the planned rates took at most 99.8%"
                    + " (h3 in) of a host's link")),
        1e-9);
    assertTrue(Double.isNaN(TerasortRuns.peakLinkUse(List.of("no such line"))));
  }

  @Test
  void theLinksComeFromTheDriversLastLineLeftThenWhole() {
    Map<String, double[]> links =
        TerasortRuns.measuredLinks(
            List.of(
                "26/11/28 INFO CoflowDriverPlugin: coflow: link estimates (MB/s in/out left for"
                    + " shuffles, of the link's): h1 9.00/9.00 of 9.00/9.00",
                "26/11/28 INFO CoflowDriverPlugin: coflow: link estimates (MB/s in/out left for"
                    + " shuffles, of the link's): h1 1.14/1.18 of 1.19/1.20, h5 0.59/0.60"));
    assertEquals(List.of("h1", "h5"), List.copyOf(links.keySet()));
    assertArrayEquals(new double[] {1.14, 1.18, 1.19, 1.20}, links.get("h1"));
    assertArrayEquals(new double[] {0.59, 0.60, 0.59, 0.60}, links.get("h5"), "no other traffic");
    assertTrue(TerasortRuns.measuredLinks(List.of("no such line")).isEmpty());
  }
}
