/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The runner's resolution: which flow endings wake the policy, and what a coarse one costs. */
class RunnerResolutionTest {

  /**
   * Three senders (1 B/s each) send 1, 2 and 5 B to one reducer behind a 1 B/s link, shared fairly.
   * Exact: rates 1/3 until t = 3, then 1/2 until t = 5, then 1: the coflow ends at 8 s. With
   * resolution 10 the flow ending at 5 s does not wake the policy (the next decision would be 10 *
   * 3 s later), so the last flow keeps 1/2 and ends at 11 s; the first ending, at 3 s, comes while
   * the coflow's age at the decision before it is 0, so it still wakes the policy.
   */
  static Instance threeFlows() {
    List<Host> hosts =
        List.of(Host.sender("A", 1), Host.sender("B", 1), Host.sender("C", 1), Host.of("R", 1, 1));
    Coflow c =
        new Coflow(
            "C1",
            0,
            List.of(Reducer.free("r")),
            List.of(new Flow(0, 0, 1), new Flow(1, 0, 2), new Flow(2, 0, 5)));
    return new Instance(hosts, List.of(c));
  }

  private static double cct(double resolution) {
    Schedule s =
        ScheduleRunner.completionTimes(
            threeFlows(), Schemes.create("fair", SchemeOptions.defaults()), resolution);
    return s.coflows().get(0).cct();
  }

  @Test
  void zeroIsTheExactRun() {
    assertEquals(8.0, cct(0), 1e-9);
    Schedule exact =
        ScheduleRunner.run(threeFlows(), Schemes.create("fair", SchemeOptions.defaults()));
    assertEquals(8.0, exact.coflows().get(0).cct(), 1e-9);
  }

  @Test
  void aCoarseResolutionLeavesFreedBandwidthIdleUntilTheNextDecision() {
    assertEquals(11.0, cct(10), 1e-9);
  }

  @Test
  void aFineResolutionStaysExactHere() {
    // Resolution 0.5: at t = 3 the next decision may wait 1.5 s, to 4.5 s, before the flow ending
    // at 5 s; so it wakes at 5 s and the run is exact again.
    assertEquals(8.0, cct(0.5), 1e-9);
  }

  /**
   * One sender and three hosts behind 1 B/s links with one reducer slot each, three coflows at 0 s:
   * A fetches 1, 2 and 6 B into three reducers, B 7 B into one, C 8 B into one. Served shortest
   * first, A's reducers take a host each and end at 1, 2 and 6 s; B takes the first slot freed, at
   * 1 s, until 8 s; C the second, at 2 s, until 10 s. At resolution 10 no flow ending after the
   * decision at 1 s wakes the policy before A ends at 6 s, so only the policy can ask to be woken
   * at 2 s, where C would otherwise wait 4 s more. {@code rpc} asks at the first end its commits
   * planned, also when work-conserving, where the fill could only bring that end earlier.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rpcWakesAtTheEndsItPlannedWhateverTheResolution(boolean workConserving) {
    List<Host> hosts = new ArrayList<>(List.of(Host.sender("S", 100)));
    for (int j = 1; j <= 3; j++) {
      hosts.add(new Host("R" + j, 1, 1, 1, true));
    }
    List<Coflow> coflows =
        List.of(
            coflow("A", 1, 2, 6), // flows in the order of their reducers
            coflow("B", 7),
            coflow("C", 8));
    var rpc = Schemes.create("rpc", new SchemeOptions(1, Double.POSITIVE_INFINITY, workConserving));
    Schedule s = ScheduleRunner.completionTimes(new Instance(hosts, coflows), rpc, 10);
    double[] ends = {6, 8, 10};
    for (int i = 0; i < ends.length; i++) {
      assertEquals(ends[i], s.coflows().get(i).cct(), 1e-9, coflows.get(i).id());
    }
  }

  /** A coflow at 0 s from host 0, one reducer per size, each fetching that many bytes. */
  private static Coflow coflow(String id, double... bytes) {
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int r = 0; r < bytes.length; r++) {
      reducers.add(Reducer.free(id + ".r" + r));
      flows.add(new Flow(0, r, bytes[r]));
    }
    return new Coflow(id, 0, reducers, flows);
  }

  @Test
  void negativeOrInfiniteResolutionIsRefused() {
    var policy = Schemes.create("fair", SchemeOptions.defaults());
    assertThrows(
        IllegalArgumentException.class,
        () -> ScheduleRunner.completionTimes(threeFlows(), policy, -1));
    assertThrows(
        IllegalArgumentException.class,
        () -> ScheduleRunner.completionTimes(threeFlows(), policy, Double.POSITIVE_INFINITY));
  }
}
