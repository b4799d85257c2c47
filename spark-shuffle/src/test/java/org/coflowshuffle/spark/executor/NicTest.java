/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NicTest {

  private static final String PROC_NET_DEV =
      """
      Inter-|   Receive                                                |  Transmit
       face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
          lo: 90997201122 53076612    0    0    0     0          0         0 90997201122 53076612    0    0    0     0       0          0
      cf-h1-eth0:  123456     100    0    0    0     0          0         0   654321      90    0    0    0     0       0          0
        eth0: 1 2 3
      """;

  @Test
  void theKernelsMbitBecomeBytesAndWhatIsNotASpeedIsUnknown() {
    assertEquals(1.25e9, Nic.parseSpeed("10000\n"), "a veth's 10 Gbit/s");
    assertEquals(0, Nic.parseSpeed("-1"), "a link that is down");
    assertEquals(0, Nic.parseSpeed("unknown"));
    assertNull(Nic.of("127.0.0.1"), "loopback has no link");
  }

  @Test
  void anInterfacesBytesReceivedAndSentAreReadFromItsLine() {
    assertArrayEquals(new long[] {123456, 654321}, Nic.parseCounts(PROC_NET_DEV, "cf-h1-eth0"));
    assertNull(Nic.parseCounts(PROC_NET_DEV, "eth0"), "a line cut short");
    assertNull(Nic.parseCounts(PROC_NET_DEV, "h1-eth0"), "names match whole");
    assertNull(Nic.parseCounts("", "lo"));
  }

  @Test
  void countsAreDatedHalfwayThroughTheirReadAndAReadThatStalledIsNotDated() {
    AtomicLong clock = new AtomicLong(1000);
    long[] quick = Nic.dated(clock::get, () -> pause(clock, 4, new long[] {7, 9}));
    assertArrayEquals(new long[] {7, 9, 1002}, quick);
    long[] stalled =
        Nic.dated(clock::get, () -> pause(clock, Nic.MOST_READ_MILLIS + 1, new long[] {8, 10}));
    assertNull(stalled, "a pause within the read: when the counts were taken is not known");
    assertNull(Nic.dated(clock::get, () -> null), "no counts");
  }

  private static long[] pause(AtomicLong clock, long millis, long[] counts) {
    clock.addAndGet(millis);
    return counts;
  }
}
