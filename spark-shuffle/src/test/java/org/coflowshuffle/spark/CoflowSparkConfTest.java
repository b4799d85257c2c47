package org.coflowshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class CoflowSparkConfTest {

  @Test
  void defaultsAreRpcAtOneGigabitWithASixtySecondThreshold() {
    CoflowSparkConf c = CoflowSparkConf.from(new SparkConf(false));
    assertEquals("rpc", c.scheme());
    assertEquals(125L * 1024 * 1024, c.executorBandwidth(), "Spark's sizes are binary: 125m");
    assertEquals(60.0, c.starvationSeconds());
    assertTrue(c.placement());
    assertEquals(false, c.schemeOptions().workConserving());
    assertEquals(null, c.coordinator(), "embedded unless a standalone one is named");
  }

  @Test
  void aStandaloneCoordinatorIsHostAndPort() {
    CoflowSparkConf c =
        CoflowSparkConf.from(
            new SparkConf(false).set(CoflowSparkConf.COORDINATOR, "coord.example:7390"));
    assertEquals("coord.example", c.coordinator().getHostString());
    assertEquals(7390, c.coordinator().getPort());
    for (String bad : new String[] {"coord.example", "coord.example:0", ":7390", "h:port"}) {
      var e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  CoflowSparkConf.from(new SparkConf(false).set(CoflowSparkConf.COORDINATOR, bad)),
              bad);
      assertTrue(e.getMessage().startsWith("spark.coflow.coordinator: expected host:port"), bad);
    }
  }

  @Test
  void readsEveryKey() {
    SparkConf s =
        new SparkConf(false)
            .set(CoflowSparkConf.SCHEME, "neat")
            .set(CoflowSparkConf.EXECUTOR_BANDWIDTH, "1g")
            .set(CoflowSparkConf.STARVATION_THRESHOLD, "2min")
            .set(CoflowSparkConf.PLACEMENT, "false")
            .set(CoflowSparkConf.WORK_CONSERVING, "true")
            .set(CoflowSparkConf.HOST_BANDWIDTH, "10.0.0.5=62m, slow=1k");
    CoflowSparkConf c = CoflowSparkConf.from(s);
    assertEquals(
        java.util.Map.of("10.0.0.5", 62.0 * 1024 * 1024, "slow", 1024.0), c.hostBandwidth());
    assertEquals("neat", c.scheme());
    assertEquals(1024.0 * 1024 * 1024, c.executorBandwidth());
    assertEquals(120.0, c.starvationSeconds());
    assertEquals(false, c.placement());
    assertTrue(c.schemeOptions().workConserving());
  }

  @Test
  void badValuesNameTheirKey() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoflowSparkConf.from(new SparkConf(false).set(CoflowSparkConf.SCHEME, "nope")));
    assertTrue(e.getMessage().startsWith("spark.coflow.scheme: unknown scheme"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CoflowSparkConf.from(
                    new SparkConf(false).set(CoflowSparkConf.EXECUTOR_BANDWIDTH, "0")));
    assertTrue(
        e.getMessage().startsWith("spark.coflow.executorBandwidth must be > 0"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CoflowSparkConf.from(
                    new SparkConf(false).set(CoflowSparkConf.STARVATION_THRESHOLD, "soon")));
    assertTrue(e.getMessage().startsWith("spark.coflow.starvationThreshold: "), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CoflowSparkConf.from(
                    new SparkConf(false).set(CoflowSparkConf.HOST_BANDWIDTH, "hostonly")));
    assertTrue(e.getMessage().contains("expected host=size"), e.getMessage());
  }
}
