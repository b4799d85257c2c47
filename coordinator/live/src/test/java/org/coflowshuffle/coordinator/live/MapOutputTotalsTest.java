/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MapOutputTotalsTest {

  @Test
  void sumsTheMapsOfEachExecutor() {
    MapOutputTotals t = new MapOutputTotals();
    t.add(0, "1", new long[] {5, 0, 7});
    t.add(1, "2", new long[] {1, 1, 1});
    t.add(2, "1", new long[] {10, 20, 30});
    assertEquals(List.of("1", "2"), t.executors());
    assertArrayEquals(new long[] {15, 20, 37}, t.sizedBytes("1"));
    assertArrayEquals(new long[] {1, 1, 1}, t.sizedBytes("2"));
    assertArrayEquals(new int[] {0, 2}, t.mapsOn("1", true));
    assertArrayEquals(new int[0], t.mapsOn("1", false));
    assertNull(t.incomplete(3, 3));
    assertTrue(t.incomplete(4, 3).contains("no size report for map 3 of 4"), t.incomplete(4, 3));
  }

  @Test
  void aRetriedMapMovesToItsNewExecutor() {
    MapOutputTotals t = new MapOutputTotals();
    t.add(0, "1", new long[] {5, 6});
    t.add(1, "1", new long[] {1, 2});
    t.add(0, "2", new long[] {5, 6}); // rerun elsewhere after executor 1 was lost
    assertArrayEquals(new long[] {1, 2}, t.sizedBytes("1"));
    assertArrayEquals(new long[] {5, 6}, t.sizedBytes("2"));
    assertArrayEquals(new int[] {1}, t.mapsOn("1", true));
    assertArrayEquals(new int[] {0}, t.mapsOn("2", true));
    t.add(1, "1", new long[] {1, 2}); // a speculative copy on the same executor counts once
    assertArrayEquals(new long[] {1, 2}, t.sizedBytes("1"));
    t.add(1, "1", new long[] {9, 9}); // an estimate: what it takes off never goes below zero
    assertArrayEquals(new long[] {9, 9}, t.sizedBytes("1"));
  }

  @Test
  void countsMapsWithoutSizesPerExecutor() {
    MapOutputTotals t = new MapOutputTotals();
    t.add(0, "1", null);
    t.add(1, "1", null);
    t.add(1, "2", null);
    assertEquals(1, t.unsizedMaps("1"));
    assertEquals(1, t.unsizedMaps("2"));
    assertNull(t.sizedBytes("1"));
    assertArrayEquals(new int[] {0}, t.mapsOn("1", false));
    assertNull(t.incomplete(2, 5), "sizes unknown: any reducer count fits");
  }

  @Test
  void aReportOfAnotherLengthLeavesTheShuffleIncompleteUntilRetried() {
    MapOutputTotals t = new MapOutputTotals();
    t.add(0, "1", new long[] {1, 1});
    t.add(1, "1", new long[] {1});
    assertEquals("map 1 reported 1 reducers, the stage has 2", t.incomplete(2, 2));
    assertArrayEquals(new long[] {1, 1}, t.sizedBytes("1"), "not summed");
    t.add(1, "1", new long[] {2, 3});
    assertNull(t.incomplete(2, 2));
    assertArrayEquals(new long[] {3, 4}, t.sizedBytes("1"));
    assertEquals("map 0 reported 2 reducers, the stage has 3", t.incomplete(2, 3));
  }

  @Test
  void takesSummedReportsAsTheirMaps() {
    MapOutputTotals t = new MapOutputTotals();
    t.addSummed(new int[] {0, 3, 4}, "1", new long[] {30, 40});
    t.addSummed(new int[] {1, 2}, "2", null);
    assertNull(t.incomplete(5, 2));
    assertArrayEquals(new int[] {0, 3, 4}, t.mapsOn("1", true));
    assertArrayEquals(new long[] {30, 40}, t.sizedBytes("1"));
    assertEquals(2, t.unsizedMaps("2"));
    t.add(3, "2", new long[] {10, 10}); // one of the summed maps reruns elsewhere
    assertArrayEquals(new long[] {20, 30}, t.sizedBytes("1"));
    assertArrayEquals(new long[] {10, 10}, t.sizedBytes("2"));
  }

  @Test
  void refusesNegativeCountsAndEmptyIds() {
    MapOutputTotals t = new MapOutputTotals();
    assertThrows(IllegalArgumentException.class, () -> t.add(-1, "1", null));
    assertThrows(IllegalArgumentException.class, () -> t.add(0, "", null));
    assertThrows(IllegalArgumentException.class, () -> t.add(0, "1", new long[] {-1}));
    assertThrows(IllegalArgumentException.class, () -> t.addSummed(new int[0], "1", null));
    assertEquals(List.of(), t.executors(), "nothing recorded by a refused report");
  }
}
