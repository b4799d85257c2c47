/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/** NEAT places by the delay under SRTF, where a small coflow waits only for smaller ones. */
class NeatPlacementTest {

  @Test
  void aSmallCoflowTakesTheFastHostALargeOneHolds() {
    // Big (100 B) goes to the fast host F (10 B/s). Small (1 B) arrives at 1 s: under SRTF it goes
    // first, so F delays it by nothing and L (1 B/s) would take 1 s; on F it also delays Big by
    // only 0.1 s. Counting Big's queued bytes as delay would send it to L instead.
    Instance inst =
        new Instance(
            List.of(Host.sender("S", 100), Host.of("F", 10, 10), Host.of("L", 1, 1)),
            List.of(
                new Coflow("Big", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 100))),
                new Coflow("Small", 1, List.of(Reducer.free("s")), List.of(new Flow(0, 0, 1)))));
    Schedule s = ScheduleRunner.run(inst, Schemes.create("neat", SchemeOptions.defaults()));
    FeasibilityChecker.check(inst, s);
    assertEquals(1, s.coflows().get(1).hostOf()[0], "Small on F");
    assertEquals(0.1, s.coflows().get(1).cct(), 1e-9);
    assertEquals(10.1, s.coflows().get(0).cct(), 1e-9); // Big: 100 B at 10 B/s plus Small's 0.1 s
  }
}
