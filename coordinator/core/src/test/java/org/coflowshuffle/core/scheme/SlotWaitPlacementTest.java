/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.junit.jupiter.api.Test;

/**
 * Slots in use that free up soon: {@code rpc} waits for them on a fast host when that finishes
 * sooner than taking free slots on slow hosts now, and not when they free too late.
 */
class SlotWaitPlacementTest {

  private static final int FAST = 1;
  private static final int SLOW_1 = 2;
  private static final int SLOW_2 = 3;

  /**
   * A sender, a fast host (100 B/s) with two slots, both in use, and two slow hosts (10 and 5 B/s)
   * with one free slot each.
   */
  private static final List<Host> HOSTS =
      List.of(
          Host.sender("s", 1000),
          new Host("fast", 100, 100, 2, true),
          new Host("slow1", 10, 10, 1, true),
          new Host("slow2", 5, 5, 1, true));

  /**
   * Two reducers of 100 bytes each from the sender: 1 s on the fast host, 10 s and 20 s on the slow
   * ones.
   */
  private static int[] placed(double... fastSlotsFreeAt) {
    Coflow c =
        new Coflow(
            "c",
            0,
            List.of(Reducer.free("r0"), Reducer.free("r1")),
            List.of(new Flow(0, 0, 100), new Flow(0, 1, 100)));
    ActiveCoflow a =
        new ActiveCoflow(
            0,
            c,
            new double[] {100, 100},
            0,
            new int[] {-1, -1},
            new boolean[2],
            0,
            0,
            new int[] {0, 0},
            new int[] {0, 1},
            null);
    double[][] freeing = {{}, fastSlotsFreeAt, {}, {}};
    ClusterView view =
        new ClusterView(0, HOSTS, List.of(a), new int[] {0, 2, 0, 0}, Fabric.bigSwitch(4), freeing);
    int[] hostOf =
        Schemes.create("rpc", SchemeOptions.defaults()).decide(view).assignments().get(0).hostOf();
    Arrays.sort(hostOf);
    return hostOf;
  }

  @Test
  void waitsForTheFastHostWhenItsSlotsFreeSoon() {
    // Both there: done at 1 + 200/100 = 3 s, against 20 s on the slow hosts now.
    assertArrayEquals(new int[] {FAST, FAST}, placed(1, 1));
  }

  @Test
  void takesTheSlowHostsWhenTheFastOnesFreeTooLate() {
    // Both there 20 + 2 = 22 s, one there and one on slow1 21 s, against 20 s on the slow hosts.
    assertArrayEquals(new int[] {SLOW_1, SLOW_2}, placed(20, 20));
  }

  @Test
  void eachSlotCountsWithTheTimeItFrees() {
    // One reducer on the slot free at 1 s (done at 2 s), the other on slow1 (10 s): the second
    // fast slot only frees at 20 s (done at 21 s), and both slow hosts take 20 s.
    assertArrayEquals(new int[] {FAST, SLOW_1}, placed(1, 20));
  }
}
