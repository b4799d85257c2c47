/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/** Aalo's queues: a coflow that has sent more than a queue's bound yields to newer ones. */
class AaloPolicyTest {

  private static final double MIB = 1 << 20;

  @Test
  void aLargeCoflowIsDemotedOnceItHasSentTheFirstBound() {
    // 10 MiB/s links. Big (100 MiB) starts alone; small (5 MiB) arrives at 0.5 s in the same first
    // queue and waits (first in, first out) until big crosses 10 MiB at 1 s and moves down.
    List<Host> hosts = List.of(Host.sender("m", 10 * MIB), Host.of("r", 10 * MIB, 10 * MIB));
    Instance two =
        new Instance(
            hosts,
            List.of(
                PaperExamples.pinned("big", 0, new double[][] {{0, 1, 100 * MIB}}),
                PaperExamples.pinned("small", 0.5, new double[][] {{0, 1, 5 * MIB}})));
    Schedule s = PaperExamples.run("D-CLAS", "aalo", two);
    assertEquals(1.0, s.coflows().get(1).cct(), 1e-9);
    assertEquals(10.5, s.coflows().get(0).cct(), 1e-9);
  }

  @Test
  void queuesGrowTenfoldFromTenMebibytes() {
    DclasQueues q = DclasQueues.DEFAULT;
    assertEquals(0, q.queueOf(0));
    assertEquals(0, q.queueOf(10 * MIB - 1));
    assertEquals(1, q.queueOf(10 * MIB));
    assertEquals(2, q.queueOf(100 * MIB));
    assertEquals(9, q.queueOf(1e30));
    assertEquals(1.5, q.leavesAt(0.5, 5 * MIB, new double[] {2 * MIB, 3 * MIB}), 1e-12);
    assertEquals(Double.POSITIVE_INFINITY, q.leavesAt(0, 1e30, new double[] {1}));
  }
}
