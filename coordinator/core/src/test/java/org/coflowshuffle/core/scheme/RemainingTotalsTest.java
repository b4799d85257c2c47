/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.RemainingTotals;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * The per-reducer and per-source totals the runner keeps for the policy: they are the remaining
 * bytes summed, at every decision, and a scheme decides as when it sums them itself (exactly for
 * rpc, up to rounding where SEBF adds them per host).
 */
class RemainingTotalsTest {

  /** Checks every view's totals, then asks {@code inner}, with or without the totals. */
  private static final class Checking implements SchedulingPolicy {
    private final SchedulingPolicy inner;
    private final boolean keepTotals;
    int checked;

    Checking(SchedulingPolicy inner, boolean keepTotals) {
      this.inner = inner;
      this.keepTotals = keepTotals;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Decision decide(ClusterView view) {
      List<ActiveCoflow> coflows = new ArrayList<>();
      for (ActiveCoflow a : view.coflows()) {
        RemainingTotals kept = a.totals();
        assertNotNull(kept, "the runner keeps totals");
        RemainingTotals summed =
            RemainingTotals.of(
                a.remaining(),
                a.flowReducer(),
                a.flowSource(),
                a.coflow().reducers().size(),
                view.hosts().size());
        assertArrayEquals(summed.perReducer(), kept.perReducer(), 0);
        assertArrayEquals(summed.perSource(), kept.perSource(), 0);
        checked++;
        coflows.add(
            keepTotals
                ? a
                : new ActiveCoflow(
                    a.index(),
                    a.coflow(),
                    a.remaining(),
                    a.sentBytes(),
                    a.hostOf(),
                    a.pinned(),
                    a.waitingSince(),
                    a.version(),
                    a.flowSource(),
                    a.flowReducer(),
                    null));
      }
      return inner.decide(
          new ClusterView(
              view.now(),
              view.hosts(),
              coflows,
              view.slotsInUse(),
              view.fabric(),
              view.slotsFreeing()));
    }
  }

  @Test
  void theTotalsAreTheRemainingBytesSummedAndChangeNoDecision() {
    Random rnd = new Random(11L);
    int checked = 0;
    for (int trial = 0; trial < 300; trial++) {
      Instance inst = RandomInstances.multiCoflow(rnd);
      for (String scheme : List.of("rpc", "neat", "varys")) {
        SchemeOptions options = new SchemeOptions(trial, 0.5 + trial % 3, false);
        Checking kept = new Checking(Schemes.create(scheme, options), true);
        Checking summed = new Checking(Schemes.create(scheme, options), false);
        Schedule a = ScheduleRunner.completionTimes(inst, kept);
        Schedule b = ScheduleRunner.completionTimes(inst, summed);
        for (int i = 0; i < inst.coflows().size(); i++) {
          double cct = b.coflows().get(i).cct();
          // rpc reads the totals as they are; SEBF's loads add them in another order than a pass
          // over the flows would, so only rounding may differ
          double tolerance = scheme.equals("rpc") ? 0 : 1e-9 * cct;
          assertEquals(
              cct,
              a.coflows().get(i).cct(),
              tolerance,
              scheme + " trial " + trial + " coflow " + i);
        }
        checked += kept.checked;
      }
    }
    assertTrue(checked > 10_000, "views checked: " + checked);
  }
}
