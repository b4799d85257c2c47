/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkConf;
import org.coflowshuffle.config.ConfigDocs;
import org.junit.jupiter.api.Test;

class CoflowSparkConfTest {

  @Test
  void pushBasedShuffleIsWhatSparkRunsNotWhatWasAskedFor() {
    SparkConf asked =
        new SparkConf(false)
            .set("spark.shuffle.push.enabled", "true")
            .set("spark.master", "local-cluster[2,1,1024]");
    assertFalse(
        CoflowSparkConf.pushBasedShuffle(asked, true),
        "Spark runs it only on YARN with the external shuffle service");
    SparkConf yarn =
        asked
            .clone()
            .set("spark.master", "yarn")
            .set("spark.shuffle.service.enabled", "true")
            .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    assertTrue(CoflowSparkConf.pushBasedShuffle(yarn, true));
    assertFalse(
        CoflowSparkConf.pushBasedShuffle(
            yarn.clone().set("spark.serializer", "org.apache.spark.serializer.JavaSerializer"),
            true),
        "Java serialization cannot relocate: Spark does not push");
    assertFalse(
        CoflowSparkConf.pushBasedShuffle(
            yarn.clone().set("spark.shuffle.push.enabled", "false"), true));
  }

  @Test
  void defaultsAreRpcOnMeasuredLinksWithASixtySecondThresholdWorkConserving() {
    CoflowSparkConf c = CoflowSparkConf.from(new SparkConf(false));
    assertEquals("rpc", c.scheme());
    assertTrue(Double.isNaN(c.defaultBandwidth()), "unset: every machine's NIC speed");
    assertFalse(c.measureLinks(), "links are taken at their speed, not measured below it");
    assertEquals(60.0, c.starvationSeconds());
    assertTrue(c.placement());
    assertEquals(true, c.schemeOptions().workConserving(), "on real links, as measured");
    assertEquals(null, c.coordinator(), "embedded unless a standalone one is named");
  }

  @Test
  void aStandaloneCoordinatorIsHostAndPort() {
    CoflowSparkConf c =
        CoflowSparkConf.from(
            new SparkConf(false).set(CoflowSparkConf.COORDINATOR.name(), "coord.example:7390"));
    assertEquals("coord.example", c.coordinator().getHostString());
    assertEquals(7390, c.coordinator().getPort());
    for (String bad : new String[] {"coord.example", "coord.example:0", ":7390", "h:port"}) {
      var e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  CoflowSparkConf.from(
                      new SparkConf(false).set(CoflowSparkConf.COORDINATOR.name(), bad)),
              bad);
      assertTrue(
          e.getMessage().startsWith("spark.coflow.coordinator=" + bad + ": expected host:port"),
          bad);
    }
  }

  @Test
  void readsEveryKey() {
    SparkConf s =
        new SparkConf(false)
            .set(CoflowSparkConf.SCHEME.name(), "neat")
            .set(CoflowSparkConf.DEFAULT_BANDWIDTH.name(), "1g")
            .set(CoflowSparkConf.STARVATION_THRESHOLD.name(), "2min")
            .set(CoflowSparkConf.PLACEMENT.name(), "false")
            .set(CoflowSparkConf.WORK_CONSERVING.name(), "true")
            .set(CoflowSparkConf.HOST_BANDWIDTH.name(), "10.0.0.5=62m, slow=1k");
    CoflowSparkConf c = CoflowSparkConf.from(s);
    assertEquals(
        java.util.Map.of("10.0.0.5", 62.0 * 1024 * 1024, "slow", 1024.0), c.hostBandwidth());
    assertEquals("neat", c.scheme());
    assertEquals(1024.0 * 1024 * 1024, c.defaultBandwidth());
    assertEquals(120.0, c.starvationSeconds());
    assertEquals(false, c.placement());
    assertTrue(c.schemeOptions().workConserving());
  }

  @Test
  void badValuesNameTheirKey() {
    assertRefused("spark.coflow.scheme", "nope", "spark.coflow.scheme=nope: unknown scheme");
    assertRefused(
        "spark.coflow.defaultBandwidth", "0", "spark.coflow.defaultBandwidth=0: must be more");
    assertRefused("spark.coflow.starvationThreshold", "soon", "spark.coflow.starvationThreshold=");
    assertRefused("spark.coflow.hostBandwidth", "hostonly", "spark.coflow.hostBandwidth=hostonly");
    assertRefused("spark.coflow.shuffleService.port", "70000", "spark.coflow.shuffleService.port");
    assertRefused("spark.coflow.sheme", "rpc", "unknown setting spark.coflow.sheme");
  }

  /**
   * docs/configuration.md holds what {@link ConfigDocs} renders from the keys; run with {@code
   * -Dcoflow.docs.update=true} to rewrite it after changing a key.
   */
  @Test
  void theReferenceMatchesTheKeys() throws Exception {
    Path file = Path.of("..", "docs", "configuration.md");
    String section =
        ConfigDocs.section(
            "Spark plugin (`spark.coflow.*`)",
            "Set with `--conf` on `spark-submit`, beside `spark.shuffle.manager` and"
                + " `spark.plugins` (see docs/spark.md). An unknown `spark.coflow.*` key is a bad"
                + " setting.",
            CoflowSparkConf.KEYS);
    assertEquals(
        section, ConfigDocs.current(file, "spark", section), "docs/configuration.md drifted");
  }

  @Test
  void onlyTlsIsSecurityThePacedTransportCannotFollow() {
    assertEquals(null, CoflowSparkConf.unsupportedSecurity(new SparkConf(false)));
    for (String key : List.of("spark.authenticate", "spark.network.crypto.enabled")) {
      assertEquals(
          null, CoflowSparkConf.unsupportedSecurity(new SparkConf(false).set(key, "true")), key);
    }
    for (String key : List.of("spark.ssl.rpc.enabled", "spark.ssl.enabled")) {
      assertEquals(
          key, CoflowSparkConf.unsupportedSecurity(new SparkConf(false).set(key, "true")), key);
    }
    assertEquals(
        null,
        CoflowSparkConf.unsupportedSecurity(
            new SparkConf(false)
                .set("spark.ssl.enabled", "true")
                .set("spark.ssl.rpc.enabled", "false")),
        "RPC TLS turned off on its own");
  }

  private static void assertRefused(String key, String value, String start) {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoflowSparkConf.from(new SparkConf(false).set(key, value)),
            value);
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
  }
}
