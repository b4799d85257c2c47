/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class SparkSubmitTest {

  @Test
  void onlyLocalClusterExecutorsFetchFromEachOtherOverTheNetwork() {
    String key = "spark.shuffle.readHostLocalDisk";
    // one machine standing for several: reads between its executors must cross a link
    assertEquals("false", SparkSubmit.baseConf("local-cluster[2,1,1024]").get(key));
    // executors sharing a testbed host share a machine: Spark reads their blocks from disk
    assertFalse(SparkSubmit.baseConf("yarn").containsKey(key));
    assertFalse(SparkSubmit.baseConf("spark://10.77.0.1:7077").containsKey(key));
  }
}
