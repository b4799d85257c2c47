/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NicSpeedTest {

  @Test
  void theKernelsMbitBecomeBytesAndWhatIsNotASpeedIsUnknown() {
    assertEquals(1.25e9, NicSpeed.parse("10000\n"), "a veth's 10 Gbit/s");
    assertEquals(0, NicSpeed.parse("-1"), "a link that is down");
    assertEquals(0, NicSpeed.parse("unknown"));
    assertEquals(0, NicSpeed.of("127.0.0.1"), "loopback has no link");
  }
}
