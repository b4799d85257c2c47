/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.junit.jupiter.api.Test;

class FeasibilityCheckerTest {

  // Hosts: 0 S1 sender only, 1 M1 with one reducer slot, 2 M2.
  // C1 (arrival 0): r1 free, r2 pinned to M2;
  //   flows S1->r1 100 B, M2->r2 50 B (local), S1->r2 100 B.
  // C2 (arrival 1): r3 free; flows S1->r3 50 B, M1->r3 20 B (local once r3 is on M1).
  private static final Instance INSTANCE =
      new Instance(
          List.of(
              Host.sender("S1", 100), new Host("M1", 100, 100, 1, true), Host.of("M2", 100, 100)),
          List.of(
              new Coflow(
                  "C1",
                  0,
                  List.of(Reducer.free("r1"), new Reducer("r2", 2)),
                  List.of(new Flow(0, 0, 100), new Flow(2, 1, 50), new Flow(0, 1, 100))),
              new Coflow(
                  "C2",
                  1,
                  List.of(Reducer.free("r3")),
                  List.of(new Flow(0, 0, 50), new Flow(1, 0, 20)))));

  private final List<CoflowSchedule> coflows = new ArrayList<>();
  private final List<FlowSchedule> flows = new ArrayList<>();

  /** The feasible schedule: r1 on M1 in [0,1), r2 on M2 in [1,2), r3 on M1 in [2,2.5). */
  FeasibilityCheckerTest() {
    coflows.add(new CoflowSchedule(0, 0, 2, new int[] {1, 2}));
    coflows.add(new CoflowSchedule(1, 1, 2.5, new int[] {1}));
    flows.add(new FlowSchedule(0, 0, 1, List.of(new Segment(0, 1, 100))));
    flows.add(new FlowSchedule(0, 1, 2, List.of()));
    flows.add(new FlowSchedule(0, 2, 2, List.of(new Segment(1, 2, 100))));
    flows.add(new FlowSchedule(1, 0, 1, List.of(new Segment(2, 2.5, 100))));
    flows.add(new FlowSchedule(1, 1, 1, List.of()));
  }

  private List<String> violations() {
    return FeasibilityChecker.violations(INSTANCE, new Schedule("test", INSTANCE, coflows, flows));
  }

  private void assertViolation(String expected) {
    List<String> found = violations();
    assertTrue(found.contains(expected), "expected <" + expected + "> among " + found);
  }

  @Test
  void acceptsAFeasibleSchedule() {
    assertEquals(List.of(), violations());
    assertDoesNotThrow(
        () -> FeasibilityChecker.check(INSTANCE, new Schedule("t", INSTANCE, coflows, flows)));
  }

  @Test
  void acceptsSplitSegmentsThatTouch() {
    flows.set(
        0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 0.5, 100), new Segment(0.5, 1, 100))));
    assertEquals(List.of(), violations());
  }

  @Test
  void catchesIncomingOverload() {
    // r3 on M2: its flow from M1 arrives while r2's flow from S1 already fills M2's link.
    coflows.set(1, new CoflowSchedule(1, 1, 2.5, new int[] {2}));
    flows.set(3, new FlowSchedule(1, 0, 2, List.of(new Segment(2, 2.5, 100))));
    flows.set(4, new FlowSchedule(1, 1, 2, List.of(new Segment(1, 1.2, 100))));
    assertEquals(
        List.of(
            "incoming rate of host \"M2\" is 200.0 bytes/s at t=1.0 s, above its inBytesPerSec"
                + " 100.0"),
        violations());
  }

  @Test
  void catchesOutgoingOverload() {
    flows.set(2, new FlowSchedule(0, 2, 2, List.of(new Segment(0.5, 1.5, 100))));
    coflows.set(0, new CoflowSchedule(0, 0, 1.5, new int[] {1, 2}));
    assertViolation(
        "outgoing rate of host \"S1\" is 200.0 bytes/s at t=0.5 s, above its outBytesPerSec 100.0");
  }

  @Test
  void catchesSegmentsOfALocalFlow() {
    flows.set(1, new FlowSchedule(0, 1, 2, List.of(new Segment(0, 1, 50))));
    assertViolation(
        "flow 1 of coflow \"C1\" (from \"M2\" to reducer \"r2\") is local but has 1 segment(s)");
  }

  @Test
  void catchesOverlappingSegments() {
    flows.set(
        0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 0.6, 50), new Segment(0.5, 1.2, 100))));
    assertViolation(
        "segment 1 [0.5, 1.2, 100.0] of flow 0 of coflow \"C1\" (from \"S1\" to reducer \"r1\")"
            + " starts before the previous segment [0.0, 0.6, 50.0] ends");
  }

  @Test
  void catchesSegmentsOutOfOrder() {
    flows.set(
        0, new FlowSchedule(0, 0, 1, List.of(new Segment(0.5, 1, 100), new Segment(0, 0.5, 100))));
    assertViolation(
        "segment 1 [0.0, 0.5, 100.0] of flow 0 of coflow \"C1\" (from \"S1\" to reducer \"r1\")"
            + " starts before the previous segment [0.5, 1.0, 100.0] ends");
  }

  @Test
  void catchesSegmentBeforeArrival() {
    flows.set(3, new FlowSchedule(1, 0, 1, List.of(new Segment(0.5, 1, 100))));
    coflows.set(1, new CoflowSchedule(1, 1, 1, new int[] {1}));
    assertViolation(
        "segment 0 [0.5, 1.0, 100.0] of flow 0 of coflow \"C2\" (from \"S1\" to reducer \"r3\")"
            + " starts before the coflow's arrival 1.0");
  }

  @Test
  void catchesNonPositiveRate() {
    flows.set(
        0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 1, 100), new Segment(1, 1.5, 0))));
    assertViolation(
        "segment 1 [1.0, 1.5, 0.0] of flow 0 of coflow \"C1\" (from \"S1\" to reducer \"r1\")"
            + " has rate 0.0 <= 0");
  }

  @Test
  void catchesMissingBytes() {
    flows.set(0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 0.9, 100))));
    assertViolation(
        "flow 0 of coflow \"C1\" (from \"S1\" to reducer \"r1\") sends 90.0 bytes in its segments,"
            + " not its 100.0");
  }

  @Test
  void toleratesRounding() {
    flows.set(0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 1, 100 + 1e-7))));
    assertEquals(List.of(), violations());
  }

  @Test
  void catchesDestinationThatIsNotTheReducersHost() {
    flows.set(0, new FlowSchedule(0, 0, 2, List.of(new Segment(0, 1, 100))));
    assertViolation(
        "flow 0 of coflow \"C1\" (from \"S1\" to reducer \"r1\") goes to host \"M2\" but its"
            + " reducer is placed on host \"M1\"");
  }

  @Test
  void catchesMovedPinnedReducer() {
    coflows.set(0, new CoflowSchedule(0, 0, 2, new int[] {1, 1}));
    assertViolation("reducer \"r2\" is pinned to host \"M2\" but placed on host \"M1\"");
  }

  @Test
  void catchesReducerOnSendOnlyHost() {
    coflows.set(0, new CoflowSchedule(0, 0, 2, new int[] {0, 2}));
    flows.set(0, new FlowSchedule(0, 0, 0, List.of()));
    assertViolation("reducer \"r1\" is placed on host \"S1\", which cannot host reducers");
  }

  @Test
  void catchesTooManyActiveReducers() {
    // r3 joins M1 at 1.0 while r1 (active until 2.0) is still there; M1 has one slot.
    flows.set(3, new FlowSchedule(1, 0, 1, List.of(new Segment(1, 1.5, 100))));
    flows.set(
        0, new FlowSchedule(0, 0, 1, List.of(new Segment(0, 0.5, 100), new Segment(1.5, 2, 100))));
    flows.set(
        2, new FlowSchedule(0, 2, 2, List.of(new Segment(0.5, 1, 100), new Segment(2, 2.5, 100))));
    coflows.set(0, new CoflowSchedule(0, 0, 2.5, new int[] {1, 2}));
    coflows.set(1, new CoflowSchedule(1, 1, 1.5, new int[] {1}));
    assertViolation(
        "host \"M1\" has 2 active reducers at t=1.0 s [r1, r3], more than its reducerSlots 1");
  }

  @Test
  void catchesFinishBeforeLastSegment() {
    coflows.set(0, new CoflowSchedule(0, 0, 1.5, new int[] {1, 2}));
    assertViolation("coflow \"C1\" has finish 1.5 s but its last segment ends later, at 2.0 s");
  }

  @Test
  void catchesFinishAfterLastSegment() {
    coflows.set(1, new CoflowSchedule(1, 1, 3, new int[] {1}));
    // r3 has a network flow, so it never waited for a slot after its last segment.
    assertViolation(
        "coflow \"C2\" has finish 3.0 s but its last segment ends at 2.5 s, and every reducer of"
            + " it has segments, so none can have waited for a slot");
  }

  @Test
  void acceptsLateFinishWhenAReducerWithoutNetworkFlowsWaitedForASlot() {
    // Coflow B: b1 fetches 100 B over the network, b2 fetches nothing and was placed at 3 s.
    Instance instance =
        new Instance(
            List.of(Host.sender("S1", 100), Host.of("M1", 100, 100)),
            List.of(
                new Coflow(
                    "B",
                    0,
                    List.of(Reducer.free("b1"), Reducer.free("b2")),
                    List.of(new Flow(0, 0, 100)))));
    Schedule schedule =
        new Schedule(
            "test",
            instance,
            List.of(new CoflowSchedule(0, 0, 3, new int[] {1, 1})),
            List.of(new FlowSchedule(0, 0, 1, List.of(new Segment(0, 1, 100)))));
    assertEquals(List.of(), FeasibilityChecker.violations(instance, schedule));
  }

  @Test
  void catchesFinishBeforeArrival() {
    // Without its one network segment C2 can claim any finish; 0.5 s is before it arrived.
    flows.set(3, new FlowSchedule(1, 0, 1, List.of()));
    coflows.set(1, new CoflowSchedule(1, 1, 0.5, new int[] {1}));
    assertViolation("coflow \"C2\" finishes at 0.5 s, before its arrival 1.0");
  }

  @Test
  void catchesMissingFlow() {
    flows.remove(4);
    assertViolation("the schedule lacks flow 1 of coflow \"C2\" (from \"M1\" to reducer \"r3\")");
  }

  @Test
  void checkThrowsWithTheViolations() {
    coflows.set(1, new CoflowSchedule(1, 1, 3, new int[] {1}));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                FeasibilityChecker.check(INSTANCE, new Schedule("rpc", INSTANCE, coflows, flows)));
    assertEquals(
        "schedule of scheme rpc is infeasible (1 violation): coflow \"C2\" has finish 3.0 s but"
            + " its last segment ends at 2.5 s, and every reducer of it has segments, so none can"
            + " have waited for a slot",
        e.getMessage());
  }
}
