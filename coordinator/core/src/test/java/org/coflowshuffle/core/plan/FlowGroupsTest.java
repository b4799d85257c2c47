/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each group visits exactly the flows of its key, ascending, whether the flows come in key order,
 * in the regular order of a full shuffle, or in any order.
 */
class FlowGroupsTest {

  @Test
  void eachGroupVisitsItsFlowsInOrder() {
    Random rnd = new Random(4);
    for (int trial = 0; trial < 300; trial++) {
      int keys = 1 + rnd.nextInt(7);
      int per = 1 + rnd.nextInt(5);
      int[] keyOfFlow = new int[keys * per];
      for (int k = 0; k < keyOfFlow.length; k++) {
        keyOfFlow[k] =
            switch (trial % 4) {
              case 0 -> k / per; // in key order, as flows come by sender
              case 1 -> k % keys; // a full shuffle's flows by reducer
              default -> rnd.nextInt(keys);
            };
      }
      if (trial % 4 == 3) {
        Arrays.sort(keyOfFlow); // in key order with keys missing, as senders among all hosts
      }
      FlowGroups groups = FlowGroups.of(keyOfFlow, keys);
      assertEquals(keys, groups.groups());
      for (int g = 0; g < keys; g++) {
        List<Integer> expected = new ArrayList<>();
        for (int k = 0; k < keyOfFlow.length; k++) {
          if (keyOfFlow[k] == g) {
            expected.add(k);
          }
        }
        List<Integer> visited = new ArrayList<>();
        for (int i = groups.start(g); i < groups.end(g); i += groups.step()) {
          visited.add(groups.flow(i));
        }
        String where = "trial " + trial + ", group " + g;
        assertArrayEquals(expected.toArray(), visited.toArray(), where);
        assertEquals(expected.size(), groups.size(g), where);
      }
    }
  }
}
