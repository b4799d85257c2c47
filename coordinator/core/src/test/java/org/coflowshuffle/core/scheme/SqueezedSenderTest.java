/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.schedule.CoflowSchedule;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/**
 * {@code rpc} places a large coflow that arrives behind two smaller ones against what those will
 * still send, also where the decisions leave a slow uplink a sliver free now. The sizes are those
 * of one run of {@code bench terasort-yarn} (six hosts, two at half speed, every host writing a
 * sixth of each shuffle, three shuffles of 24, 48 and 72 MB with six reducers each, the two smaller
 * placed one per host): a slow host's uplink carries its share of every shuffle but what its own
 * reducers keep local, so the large coflow should put a reducer on each slow host. Booked at the
 * few bytes per second the smallest coflow leaves it now, the middle one's bytes on a slow uplink
 * looked gone for hours, and the large coflow was placed off that host, whose uplink then carried 2
 * MB more than it needed (9 s at its speed).
 */
class SqueezedSenderTest {

  private static final double MB = 1e6;

  /**
   * One shuffle as a sort run wrote it: host u wrote {@code written[u]} bytes, reducer n reads
   * {@code read[n]}, from each host in proportion to what it wrote.
   */
  private static Coflow shuffle(
      String id, double arrival, double[] written, double[] read, boolean oneEach) {
    double total = Arrays.stream(written).sum();
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int n = 0; n < read.length; n++) {
      reducers.add(oneEach ? new Reducer(id + n, n) : Reducer.free(id + n));
      for (int u = 0; u < written.length; u++) {
        flows.add(new Flow(u, n, read[n] * written[u] / total));
      }
    }
    return new Coflow(id, arrival, reducers, flows);
  }

  @Test
  void aLargeCoflowBehindSmallerOnesTakesAReducerOnEachSlowHost() {
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < 6; j++) {
      double speed = j < 4 ? 0.45125 * MB : 0.225625 * MB;
      hosts.add(Host.of("h" + (j + 1), speed, speed));
    }
    Instance instance =
        new Instance(
            hosts,
            List.of(
                shuffle(
                    "small",
                    0,
                    new double[] {3988915, 3988658, 3988953, 3988654, 3987426, 3989698},
                    new double[] {4046693, 4022256, 4006650, 3838690, 4029207, 3988808},
                    true),
                shuffle(
                    "middle",
                    1.493,
                    new double[] {7977932, 7977129, 7978145, 7977311, 7978118, 7977728},
                    new double[] {7919961, 8091509, 8234433, 7991556, 7966391, 7662513},
                    true),
                shuffle(
                    "large",
                    7.582,
                    new double[] {11967710, 11965708, 11965666, 11967138, 11966389, 11965714},
                    new double[] {12091159, 12093496, 11925039, 11604742, 12086995, 11996894},
                    false)));
    Schedule s = PaperExamples.run("squeezed sender", "rpc", instance);
    CoflowSchedule large = s.coflows().get(2);
    int[] hostOf = large.hostOf();
    assertTrue(
        Arrays.stream(hostOf).anyMatch(h -> h == 4) && Arrays.stream(hostOf).anyMatch(h -> h == 5),
        "a reducer on each slow host: " + Arrays.toString(hostOf));
    // Each slow uplink carries 20 MB in all at 0.225 MB/s: 88.9 s from the first arrival.
    assertEquals(88.9 - 7.582, large.cct(), 1.0, Arrays.toString(hostOf));
  }
}
