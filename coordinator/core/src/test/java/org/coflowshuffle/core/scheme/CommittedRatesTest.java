/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.plan.ReceiverDrivenRates;
import org.coflowshuffle.core.plan.RpcPlanner;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.CoflowAssignment;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * {@code rpc} commits a coflow starting from its last commit ({@link
 * org.coflowshuffle.core.plan.CommittedRates}), rewriting only the rates that change. At every
 * decision its rates and placements must be those of the same scheme computing every rate afresh,
 * up to rounding, also when the flows did not move at the rates committed (as live, where progress
 * is reported from real transfers). The scheme computing afresh also takes B for the last coflow
 * served in a decision, which {@code rpc} skips since nothing reads it after.
 */
class CommittedRatesTest {

  /** Decides with both policies on every view, compares, and goes on with {@code applied}. */
  private static final class Compared implements SchedulingPolicy {
    final SchedulingPolicy kept;
    final SchedulingPolicy fresh;
    final Function<double[], double[]> applied; // what the runner gets of kept's rates
    final Map<Integer, double[]> lastArray = new HashMap<>(); // per coflow, its last with rates
    int commits; // coflows with a rate, compared
    int continued; // of them, committed from the last commit (the same array rewritten) later
    double lastNow = Double.NaN;

    Compared(long seed, Function<double[], double[]> applied) {
      kept = Schemes.create("rpc", options(seed));
      fresh = freshRpc(seed);
      this.applied = applied;
    }

    @Override
    public String name() {
      return "rpc";
    }

    @Override
    public Decision decide(ClusterView view) {
      Decision a = kept.decide(view);
      Decision b = fresh.decide(view);
      List<CoflowAssignment> out = new ArrayList<>();
      for (int i = 0; i < view.coflows().size(); i++) {
        CoflowAssignment x = a.assignments().get(i);
        CoflowAssignment y = b.assignments().get(i);
        String where = "at " + view.now() + ", coflow " + i;
        assertArrayEquals(y.hostOf(), x.hostOf(), where);
        assertEquals(y.rates().length, x.rates().length, where);
        boolean moves = false;
        for (int k = 0; k < x.rates().length; k++) {
          assertEquals(y.rates()[k], x.rates()[k], 1e-9 * y.rates()[k], where + ", flow " + k);
          moves |= x.rates()[k] > 0;
        }
        // Counted only after a commit with rates: continuing from one of none is right, as the
        // flows then moved at none.
        int index = view.coflows().get(i).index();
        if (moves) {
          commits++;
          continued += lastArray.get(index) == x.rates() && view.now() > lastNow ? 1 : 0;
          lastArray.put(index, x.rates());
        } else {
          lastArray.remove(index);
        }
        out.add(new CoflowAssignment(x.hostOf(), applied.apply(x.rates())));
      }
      lastNow = view.now();
      return new Decision(out, a.wakeUpAt());
    }
  }

  /** Every other seed with a starvation threshold, so that starving coflows are committed too. */
  private static SchemeOptions options(long seed) {
    return new SchemeOptions(seed, seed % 2 == 0 ? Double.POSITIVE_INFINITY : 0.5, false);
  }

  /** {@code rpc} with a rate rule that starts every commit afresh. */
  private static SchedulingPolicy freshRpc(long seed) {
    ReceiverDrivenRates rule = new ReceiverDrivenRates();
    return new SrtfPolicy("rpc", new RpcPlanner(true), rule::commit, options(seed));
  }

  @Test
  void ratesKeptFromTheLastCommitAreThoseComputedAfresh() {
    Random rnd = new Random(5);
    keptRatesAreThoseComputedAfresh(
        300,
        trial ->
            trial % 3 == 0
                ? RandomInstances.multiCoflow(rnd)
                : RandomInstances.synthetic(rnd, false),
        true);
  }

  /**
   * The loops specialised to a full shuffle listed sender by sender, with senders that bind. Only
   * decision by decision: in these instances a rounding-level difference can swap two coflows'
   * turns (in the 38th, rates 1e-15 lower give another coflow's CCT 2.20 s instead of 1.85 s), so
   * whole runs need not agree.
   */
  @Test
  void ratesKeptInFullShufflesAreThoseComputedAfresh() {
    Random rnd = new Random(7);
    keptRatesAreThoseComputedAfresh(200, trial -> RandomInstances.fullShuffle(rnd), false);
  }

  /**
   * As {@link #ratesKeptInFullShufflesAreThoseComputedAfresh}, with up to 40 reducers per coflow: a
   * decision that changes the rates of a few reducers rewrites them reducer by reducer, one that
   * changes those of many rewrites them row by row, and both must give the rates computed afresh.
   */
  @Test
  void ratesKeptInWideFullShufflesAreThoseComputedAfresh() {
    Random rnd = new Random(8);
    keptRatesAreThoseComputedAfresh(
        60, trial -> RandomInstances.fullShuffle(rnd, 38, false), false);
  }

  /**
   * As {@link #ratesKeptInWideFullShufflesAreThoseComputedAfresh}, with the flows listed reducer by
   * reducer: then a reducer's flows lie side by side, and the loops go column by column.
   */
  @Test
  void ratesKeptInFullShufflesListedReducerByReducerAreThoseComputedAfresh() {
    Random rnd = new Random(9);
    keptRatesAreThoseComputedAfresh(
        120, trial -> RandomInstances.fullShuffle(rnd, trial % 2 == 0 ? 5 : 38, true), false);
  }

  /**
   * Runs {@code trials} instances with {@link Compared}, which checks every decision, and with
   * {@code wholeRuns} also the CCTs of a run that computes every rate afresh.
   */
  private static void keptRatesAreThoseComputedAfresh(
      int trials, IntFunction<Instance> instances, boolean wholeRuns) {
    int commits = 0;
    int continued = 0;
    for (int trial = 0; trial < trials; trial++) {
      Instance inst = instances.apply(trial);
      Compared compared = new Compared(trial, rates -> rates);
      Schedule kept = ScheduleRunner.run(inst, compared);
      Schedule fresh = ScheduleRunner.run(inst, freshRpc(trial));
      for (int c = 0; wholeRuns && c < inst.coflows().size(); c++) {
        double cct = fresh.coflows().get(c).cct();
        assertEquals(cct, kept.coflows().get(c).cct(), 1e-9 * cct, "trial " + trial);
      }
      commits += compared.commits;
      continued += compared.continued;
    }
    System.out.printf("%d commits, %d continued from the last%n", commits, continued);
    assertTrue(continued > commits / 4, continued + " of " + commits + " commits continued");
  }

  @Test
  void flowsThatMovedSlowerThanCommittedGetRatesAfresh() {
    Random rnd = new Random(6);
    int commits = 0;
    int continued = 0;
    for (int trial = 0; trial < 100; trial++) {
      // The runner moves every flow at 60% of its rate: the coflows never progress as committed.
      Compared compared =
          new Compared(
              trial,
              rates -> {
                double[] slower = rates.clone(); // the policy's own array is not to be written
                for (int k = 0; k < slower.length; k++) {
                  slower[k] *= 0.6;
                }
                return slower;
              });
      ScheduleRunner.run(RandomInstances.synthetic(rnd, false), compared);
      commits += compared.commits;
      continued += compared.continued;
    }
    assertTrue(commits > 100, "too few commits to say anything: " + commits);
    assertEquals(0, continued, "a commit continued from rates the flows did not move at");
  }
}
