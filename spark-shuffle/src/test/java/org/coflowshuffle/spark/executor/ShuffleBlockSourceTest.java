/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ShuffleBlockSourceTest {

  @Test
  void theSparkThePluginIsBuiltForServesShuffleFilesAsTheSenderReadsThem() {
    assertNull(ShuffleBlockSource.unsupported());
  }
}
