/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class YarnSpareHostsTest {

  @Test
  void sizesTheContainerAsSparksYarnAllocatorDoes() {
    SparkConf defaults = new SparkConf(false);
    assertEquals(1024 + 384, YarnSpareHosts.containerMb(defaults, 1), "1g and the least overhead");
    assertEquals(2048, YarnSpareHosts.containerMb(defaults, 1024), "rounded up to YARN's unit");
    SparkConf big = new SparkConf(false).set("spark.executor.memory", "8g");
    assertEquals(8192 + 819, YarnSpareHosts.containerMb(big, 1), "a tenth of the memory");
    big.set("spark.executor.memoryOverhead", "1g");
    assertEquals(9216, YarnSpareHosts.containerMb(big, 512));
  }

  @Test
  void spareHostsAreRunningNodesWithRoomForOneContainer() {
    List<NodeReport> nodes =
        List.of(
            node("h1", NodeState.RUNNING, 4096, 2048),
            node("h2", NodeState.RUNNING, 4096, 3000),
            node("h3", NodeState.UNHEALTHY, 4096, 0),
            node("h4", NodeState.RUNNING, 2048, 0));
    assertEquals(List.of("h1", "h4"), YarnSpareHosts.withRoom(nodes, 2048));
  }

  private static NodeReport node(String host, NodeState state, long memoryMb, long usedMb) {
    return NodeReport.newInstance(
        NodeId.newInstance(host, 45454),
        state,
        host + ":8042",
        "/default-rack",
        Resource.newInstance(usedMb, 0),
        Resource.newInstance(memoryMb, 8),
        0,
        "",
        0L);
  }
}
