/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.WaveRule;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * The three ways of scheduling a coflow whose reducers do not all fit the free slots (section IV-D,
 * multi-wave), on an instance worked out by hand: two hosts of 100 MB/s with one slot each; A has
 * three reducers of 100 MB (1 s each, two waves), B one of 130 MB (1.3 s), both at time 0.
 */
class WaveRuleTest {

  private static double[] ccts(WaveRule rule, String scheme) {
    List<Host> hosts =
        List.of(
            Host.sender("s", 1e10),
            new Host("r1", 1e8, 1e8, 1, true),
            new Host("r2", 1e8, 1e8, 1, true));
    Instance inst =
        new Instance(
            hosts,
            List.of(
                new Coflow(
                    "A",
                    0,
                    List.of(Reducer.free("a1"), Reducer.free("a2"), Reducer.free("a3")),
                    List.of(new Flow(0, 0, 1e8), new Flow(0, 1, 1e8), new Flow(0, 2, 1e8))),
                new Coflow("B", 0, List.of(Reducer.free("b")), List.of(new Flow(0, 0, 1.3e8)))));
    Schedule s =
        ScheduleRunner.run(inst, Schemes.create(scheme, SchemeOptions.defaults().withWaves(rule)));
    FeasibilityChecker.check(inst, s);
    return new double[] {s.coflows().get(0).cct(), s.coflows().get(1).cct()};
  }

  @Test
  void wholeOrdersByTheWholeCoflow() {
    // A's estimate is its first wave (1 s) plus the third reducer over both hosts (0.5 s): 1.5 s,
    // longer than B's 1.3 s, so B goes first and A starts one reducer beside it, a second at 1 s
    // and the last on B's slot at 1.3 s.
    assertArrayEquals(new double[] {2.3, 1.3}, ccts(WaveRule.WHOLE, "rpc"), 1e-9);
  }

  @Test
  void perWaveOrdersByTheCurrentWave() {
    // A's first wave ends at 1 s, before B would: A takes both slots; at 1 s its last wave (1 s)
    // still goes before B (1.3 s), each on one host.
    assertArrayEquals(new double[] {2.0, 2.3}, ccts(WaveRule.PER_WAVE, "rpc"), 1e-9);
  }

  @Test
  void lastWavePlansOnlyTheLastWave() {
    // A's three waiting reducers do not fit the two free slots: B is planned alone and takes one
    // slot; A fills the other in the background, one reducer at a time until 2 s, and its last
    // reducer, once it fits, takes B's slot at 1.3 s, ending at 2.3 s.
    assertArrayEquals(new double[] {2.3, 1.3}, ccts(WaveRule.LAST_WAVE, "rpc"), 1e-9);
  }

  @Test
  void withoutSlotLimitsTheRulesAgree() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 20; trial++) {
      Instance inst = RandomInstances.synthetic(rnd, false);
      for (String scheme : List.of("rpc", "rpc-faithful")) {
        double[] whole = all(inst, scheme, WaveRule.WHOLE);
        assertArrayEquals(whole, all(inst, scheme, WaveRule.LAST_WAVE), 0, scheme + " " + trial);
        assertArrayEquals(whole, all(inst, scheme, WaveRule.PER_WAVE), 0, scheme + " " + trial);
      }
    }
  }

  private static double[] all(Instance inst, String scheme, WaveRule rule) {
    Schedule s =
        ScheduleRunner.run(inst, Schemes.create(scheme, SchemeOptions.defaults().withWaves(rule)));
    List<Double> ccts = new ArrayList<>();
    s.coflows().forEach(c -> ccts.add(c.cct()));
    return ccts.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
