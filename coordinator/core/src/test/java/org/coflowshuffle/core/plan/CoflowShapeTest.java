/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.junit.jupiter.api.Test;

/**
 * The shape's slots are each reducer's distinct sources, ascending, numbered reducer by reducer,
 * whatever the order of the flows: listed sender by sender (numbered in flow order), reducer by
 * reducer or shuffled (grouped by reducer first), with a (source, reducer) pair repeated or not.
 */
class CoflowShapeTest {

  @Test
  void slotsAreEachReducersSourcesInOrderForAnyFlowOrder() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 300; trial++) {
      int hosts = 1 + rnd.nextInt(9);
      int reducers = 1 + rnd.nextInt(6);
      List<Flow> flows = new ArrayList<>();
      for (int u = 0; u < hosts; u++) {
        for (int n = 0; n < reducers; n++) {
          for (int copies = rnd.nextInt(3); copies > 0; copies--) { // none, one or two per pair
            flows.add(new Flow(u, n, 1 + rnd.nextInt(100)));
          }
        }
      }
      if (flows.isEmpty()) {
        continue;
      }
      switch (trial % 3) {
        case 0 -> {} // sender by sender
        case 1 -> flows.sort((a, b) -> a.reducer() - b.reducer()); // reducer by reducer
        default -> Collections.shuffle(flows, rnd);
      }
      assertShape(flows, reducers, "trial " + trial);
    }
  }

  @Test
  void aSourceThatComesBackForAReducerIsOneSlot() {
    // Reducer 0 hears from host 2, then host 1, then host 2 again: two slots, host 1 first.
    List<Flow> flows =
        List.of(new Flow(2, 0, 1), new Flow(0, 1, 1), new Flow(1, 0, 1), new Flow(2, 0, 1));
    CoflowShape shape = assertShape(flows, 2, "returning source");
    assertArrayEquals(new int[] {1, 2, 0}, shape.slots().sourceOfSlot());
    assertArrayEquals(new int[] {1, 2, 0, 1}, shape.slots().slotOfFlow());
  }

  @Test
  void aFullShuffleIsAGridListedSenderBySenderOrReducerByReducer() {
    List<Flow> bySender = new ArrayList<>();
    List<Flow> byReducer = new ArrayList<>();
    int[] senders = {4, 1, 7}; // in any order, one row each
    for (int u : senders) {
      for (int n = 0; n < 2; n++) {
        bySender.add(new Flow(u, n, 1));
      }
    }
    for (int n = 0; n < 2; n++) {
      for (int u : senders) {
        byReducer.add(new Flow(u, n, 1));
      }
    }
    CoflowShape.Grid rows = shapeOf(bySender, 2).grid();
    assertArrayEquals(senders, rows.senderOfRow());
    assertEquals(5, rows.flow(2, 1), "sender 7's flow to reducer 1, sender by sender");
    CoflowShape columnShape = shapeOf(byReducer, 2);
    CoflowShape.Grid columns = columnShape.grid();
    assertArrayEquals(senders, columns.senderOfRow());
    assertArrayEquals(new int[] {1, 4, 7}, columnShape.senders, "read off the first reducer");
    FlowGroups read = FlowGroups.of(columnShape.reducerOfFlow, 2);
    for (int n = 0; n < 2; n++) { // grouped without a pass of their own, as a pass groups them
      assertEquals(read.start(n), columnShape.byReducer().start(n));
      assertEquals(read.end(n), columnShape.byReducer().end(n));
      assertEquals(read.step(), columnShape.byReducer().step());
    }
    assertEquals(5, columns.flow(2, 1), "sender 7's flow to reducer 1, reducer by reducer");
    assertTrue(columns.byReducer() && !rows.byReducer());
    // Reducers in the regular order, but the first row mixes two senders.
    List<Flow> mixed =
        List.of(new Flow(0, 0, 1), new Flow(1, 1, 1), new Flow(1, 0, 1), new Flow(0, 1, 1));
    assertEquals(null, shapeOf(mixed, 2).grid(), "mixed row");
    // Reducer by reducer, but the second reducer's senders in another order.
    List<Flow> swapped =
        List.of(new Flow(0, 0, 1), new Flow(1, 0, 1), new Flow(1, 1, 1), new Flow(0, 1, 1));
    assertEquals(null, shapeOf(swapped, 2).grid(), "another order of senders");
    List<Flow> shuffled = new ArrayList<>(bySender);
    Collections.shuffle(shuffled, new Random(5));
    assertEquals(null, shapeOf(shuffled, 2).grid(), "not in a regular order");
  }

  private static CoflowShape shapeOf(List<Flow> flows, int reducers) {
    List<Reducer> rs = new ArrayList<>();
    for (int n = 0; n < reducers; n++) {
      rs.add(Reducer.free("r" + n));
    }
    Coflow c = new Coflow("c", 0, rs, flows);
    int[] src = flows.stream().mapToInt(Flow::src).toArray();
    int[] reducer = flows.stream().mapToInt(Flow::reducer).toArray();
    double[] remaining = flows.stream().mapToDouble(Flow::bytes).toArray();
    ActiveCoflow a =
        new ActiveCoflow(
            0, c, remaining, 0, new int[reducers], new boolean[reducers], 0, 0, src, reducer, null);
    return new CoflowShape(a);
  }

  /** Checks the shape of {@code flows} against its definition; returns it. */
  private static CoflowShape assertShape(List<Flow> flows, int reducers, String where) {
    CoflowShape shape = shapeOf(flows, reducers);
    int[] src = flows.stream().mapToInt(Flow::src).toArray();
    int[] reducer = flows.stream().mapToInt(Flow::reducer).toArray();

    TreeMap<Integer, TreeSet<Integer>> sourcesOf = new TreeMap<>();
    TreeSet<Integer> senders = new TreeSet<>();
    for (Flow f : flows) {
      sourcesOf.computeIfAbsent(f.reducer(), n -> new TreeSet<>()).add(f.src());
      senders.add(f.src());
    }
    List<Integer> expectedSources = new ArrayList<>();
    int[] expectedFirst = new int[reducers + 1];
    for (int n = 0; n < reducers; n++) {
      expectedSources.addAll(sourcesOf.getOrDefault(n, new TreeSet<>()));
      expectedFirst[n + 1] = expectedSources.size();
    }
    assertArrayEquals(
        expectedSources.stream().mapToInt(Integer::intValue).toArray(),
        shape.slots().sourceOfSlot(),
        where);
    assertArrayEquals(expectedFirst, shape.slots().firstSlot(), where);
    assertArrayEquals(senders.stream().mapToInt(Integer::intValue).toArray(), shape.senders, where);
    for (int k = 0; k < flows.size(); k++) {
      int slot = shape.slots().slotOfFlow()[k];
      int n = reducer[k];
      assertEquals(src[k], shape.slots().sourceOfSlot()[slot], where + ", flow " + k);
      assertTrue(
          slot >= shape.slots().firstSlot()[n] && slot < shape.slots().firstSlot()[n + 1], where);
    }
    return shape;
  }
}
