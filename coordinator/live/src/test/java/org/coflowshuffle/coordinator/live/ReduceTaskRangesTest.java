/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReduceTaskRangesTest {

  @Test
  void findsTheTaskOfEveryReducer() {
    ReduceTaskRanges t = ReduceTaskRanges.of(new int[] {0, 2, 5}, 8);
    assertEquals(3, t.tasks());
    int[] expected = {0, 0, 1, 1, 1, 2, 2, 2};
    for (int r = 0; r < 8; r++) {
      assertEquals(expected[r], t.taskOf(r), "reducer " + r);
    }
    assertEquals(-1, t.taskOf(8));
    assertEquals(-1, t.taskOf(-1));
    assertEquals(2, t.first(1));
    assertEquals(5, t.end(1));
    assertEquals(8, t.end(2));
    assertFalse(t.oneEach());
    assertTrue(ReduceTaskRanges.oneEach(4).oneEach());
    assertEquals(ReduceTaskRanges.oneEach(3), ReduceTaskRanges.of(new int[] {0, 1, 2}, 3));
  }

  @Test
  void refusesStartsThatDoNotDivideTheReducers() {
    assertThrows(IllegalArgumentException.class, () -> ReduceTaskRanges.of(new int[] {1, 2}, 4));
    assertThrows(IllegalArgumentException.class, () -> ReduceTaskRanges.of(new int[] {0, 2, 2}, 4));
    assertThrows(IllegalArgumentException.class, () -> ReduceTaskRanges.of(new int[] {0, 4}, 4));
    assertThrows(IllegalArgumentException.class, () -> ReduceTaskRanges.of(new int[] {}, 4));
    assertEquals(0, ReduceTaskRanges.of(new int[] {}, 0).tasks());
  }
}
