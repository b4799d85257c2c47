/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FabricTest {

  @Test
  void fatTreeHasTheTextbookShape() {
    Fabric f = FatTree.of(4, 1);
    assertEquals(16, f.hosts());
    assertEquals(2 * 16 + 64, f.links()); // k^3 directed inner links
    assertEquals(1, f.paths(0, 1).length); // same edge switch
    assertArrayEquals(new int[] {0, 16 + 1}, f.paths(0, 1)[0]); // only the hosts' own links
    assertEquals(2, f.paths(0, 2).length); // same pod: one per aggregation switch
    assertEquals(4, f.paths(0, 4).length); // other pod: one per core switch
    assertEquals(16, FatTree.of(8, 1).paths(0, 127).length);
    Set<String> middles = new HashSet<>();
    for (int[] p : f.paths(0, 15)) {
      assertEquals(6, p.length);
      assertEquals(0, p[0]);
      assertEquals(16 + 15, p[5]);
      middles.add(p[2] + "," + p[3]); // each path through its own core switch
    }
    assertEquals(4, middles.size());
  }

  @Test
  void everyInnerLinkOfAFatTreeIsOnSomePathAndPathsGoUpThenDown() {
    Fabric f = FatTree.of(4, 1);
    Set<Integer> used = new HashSet<>();
    for (int s = 0; s < 16; s++) {
      for (int d = 0; d < 16; d++) {
        if (s != d) {
          for (int[] p : f.paths(s, d)) {
            for (int i = 1; i < p.length - 1; i++) {
              used.add(p[i]);
            }
          }
        }
      }
    }
    assertEquals(64, used.size());
  }

  @Test
  void vl2RacksOnOnePairHaveTwoPathsOthersTwiceDa() {
    Fabric f = Vl2.of(4, 4, 2, 10);
    assertEquals(8, f.hosts()); // D_A * D_I / 4 racks of 2 servers
    assertEquals(1, f.paths(0, 1).length); // same rack
    assertEquals(2, f.paths(0, 2).length); // racks 0 and 1 share an aggregation pair
    assertEquals(8, f.paths(0, 4).length); // 2 up * D_A/2 intermediates * 2 down
    Set<String> distinct = new HashSet<>();
    for (int[] p : f.paths(0, 4)) {
      distinct.add(java.util.Arrays.toString(p));
    }
    assertEquals(8, distinct.size());
    assertEquals(320, Vl2.hosts(8, 8, 20));
  }

  @Test
  void capacitiesPutHostLinksFirstAndBadInputSaysWhy() {
    Fabric f = FatTree.of(2, 5);
    List<Host> hosts = List.of(Host.of("a", 1, 2), Host.of("b", 3, 4));
    double[] c = f.capacities(hosts);
    assertEquals(2, c[0]); // host 0 out
    assertEquals(1, c[2]); // host 0 in
    assertEquals(5, c[4]);
    assertThrows(IllegalArgumentException.class, () -> FatTree.of(3, 1));
    assertThrows(IllegalArgumentException.class, () -> f.paths(0, 0));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Instance(List.of(Host.of("a", 1, 1)), List.of(), f));
    assertTrue(e.getMessage().contains("has 2 hosts, not 1"), e.getMessage());
  }

  @Test
  void sharedLinksAreTheOnesOnEveryCandidate() {
    int[][] candidates = {{0, 5, 9}, {0, 6, 9}, {0, 7, 8, 9}};
    assertArrayEquals(new int[] {0, 9}, Fabric.shared(candidates));
  }
}
