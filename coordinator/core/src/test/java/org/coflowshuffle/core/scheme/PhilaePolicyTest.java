/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.schedule.FlowSchedule;
import org.coflowshuffle.core.schedule.Schedule;
import org.junit.jupiter.api.Test;

/** Philae's sampling: pilots first, then coflows in the queues by their estimated contention. */
class PhilaePolicyTest {

  private static final double MIB = 1 << 20;

  /**
   * Hosts 0..senders-1 send at 10 MiB/s; receivers r1 (host senders) and r2. {@code big} sends
   * {@code bigFlow} bytes from every sender to r1, arriving first; {@code small} sends {@code
   * smallFlow} from every sender but the first to r2, just after. (Big's one pilot runs on the
   * first sender, and a pilot holds its whole port.)
   */
  private static Instance twoWide(int senders, double bigFlow, double smallFlow) {
    List<Host> hosts = new ArrayList<>();
    for (int s = 0; s < senders; s++) {
      hosts.add(Host.sender("m" + s, 10 * MIB));
    }
    hosts.add(Host.of("r1", 100 * MIB, 100 * MIB));
    hosts.add(Host.of("r2", 100 * MIB, 100 * MIB));
    double[][] big = new double[senders][];
    double[][] small = new double[senders - 1][];
    for (int s = 0; s < senders; s++) {
      big[s] = new double[] {s, senders, bigFlow};
      if (s > 0) {
        small[s - 1] = new double[] {s, senders + 1, smallFlow};
      }
    }
    return new Instance(
        hosts,
        List.of(PaperExamples.pinned("big", 0, big), PaperExamples.pinned("small", 0.01, small)));
  }

  @Test
  void aWideCoflowsPilotsTakeTheirWholePorts() {
    // 40 senders: max(1, 5% of 40) = 2 pilots on two senders, each at its sender's full 10 MiB/s;
    // the other 38 flows share what r1's 100 MiB/s leaves (work conservation), 80/38 MiB/s each.
    Schedule s = PaperExamples.run("pilots", "philae", twoWide(40, 10 * MIB, MIB));
    List<Double> firstRates = new ArrayList<>();
    for (FlowSchedule f : s.flows()) {
      if (f.coflow() == 0) {
        firstRates.add(f.segments().get(0).rate() / MIB);
      }
    }
    assertEquals(
        2, firstRates.stream().filter(r -> Math.abs(r - 10) < 1e-9).count(), "" + firstRates);
    assertEquals(
        38,
        firstRates.stream().filter(r -> Math.abs(r - 80.0 / 38) < 1e-9).count(),
        "" + firstRates);
  }

  @Test
  void theCoflowEstimatedSmallerGoesFirstThoughItCameSecond() {
    Instance wide = twoWide(20, 40 * MIB, MIB);
    // Small's pilot ends at 0.11 s; estimated at 1 MiB per flow it goes ahead of big, which is
    // still sampling, and its 1 MiB flows take 0.1 s on senders that big now only gets leftovers
    // of.
    Schedule philae = PaperExamples.run("estimate", "philae", wide);
    assertEquals(0.2, philae.coflows().get(1).finish(), 1e-9);
    assertTrue(philae.coflows().get(0).finish() > 4, "big waits for its 40 MiB pilot");
  }

  @Test
  void thinCoflowsSkipSampling() {
    // Seven flows: all start at once.
    Schedule s = PaperExamples.run("thin", "philae", twoWide(7, MIB, MIB));
    long startedAtOnce =
        s.flows().stream()
            .filter(f -> f.coflow() == 0 && !f.segments().isEmpty())
            .filter(f -> f.segments().get(0).start() == 0)
            .count();
    assertEquals(7, startedAtOnce);
  }
}
