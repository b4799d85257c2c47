/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestbedYarnTest {

  @Test
  void siteFilesEscapeValues() {
    assertEquals(
        "<?xml version=\"1.0\"?>\n<configuration>\n"
            + "  <property><name>a</name><value>x&lt;y&amp;z</value></property>\n"
            + "</configuration>\n",
        TestbedYarn.siteXml(Map.of("a", "x<y&z")));
  }

  @Test
  void eachNodeFitsOneExecutorAndTheApplicationMaster() {
    TestbedYarn.Nodes nodes =
        new TestbedYarn.Nodes(1024, TestbedYarn.coflowService(Path.of("/x/service.jar")));
    Map<String, String> site = TestbedYarn.commonSite("10.77.0.1", nodes);
    int memory = Integer.parseInt(site.get("yarn.nodemanager.resource.memory-mb"));
    int executor = 1024 + TestbedYarn.EXECUTOR_OVERHEAD_MB;
    assertTrue(memory >= executor + TestbedYarn.AM_MB && memory < 2 * executor, "" + memory);
    assertEquals(
        site.get("yarn.nodemanager.resource.cpu-vcores"),
        site.get("yarn.scheduler.maximum-allocation-vcores"),
        "an executor may take every core of a node");
    assertEquals(TestbedYarn.SERVICE_NAME, site.get("yarn.nodemanager.aux-services"));
    assertEquals(
        "/x/service.jar", site.get("yarn.nodemanager.aux-services.coflow_shuffle.classpath"));
    int twoEach =
        Integer.parseInt(
            TestbedYarn.commonSite("10.77.0.1", new TestbedYarn.Nodes(1024, Map.of(), false, 2))
                .get("yarn.nodemanager.resource.memory-mb"));
    assertTrue(
        twoEach >= 2 * executor + TestbedYarn.AM_MB && twoEach < 3 * executor,
        "two executors a node: " + twoEach);
    Map<String, String> node =
        TestbedYarn.nodeSite(
            new HostLink("h2", "coflow-h2", "10.77.0.12", 100, 100), Path.of("/w"));
    assertEquals("10.77.0.12:45454", node.get("yarn.nodemanager.address"));
    assertEquals("/w/local", node.get("yarn.nodemanager.local-dirs"));
  }

  @Test
  void theServiceIsSecuredAsTheApplicationsAskButNeverHoldsTheirSecret() {
    Map<String, String> site =
        TestbedYarn.commonSite(
            "10.77.0.1",
            new TestbedYarn.Nodes(
                1024,
                TestbedYarn.coflowService(
                    Path.of("/x/service.jar"),
                    Map.of(
                        "spark.authenticate", "true",
                        "spark.authenticate.secret", "s3cret",
                        "spark.network.crypto.enabled", "true",
                        "spark.executor.cores", "2"))));
    assertEquals("true", site.get("spark.authenticate"));
    assertEquals("true", site.get("spark.network.crypto.enabled"));
    assertFalse(site.containsKey("spark.authenticate.secret"));
    assertFalse(site.containsKey("spark.executor.cores"));
  }
}
