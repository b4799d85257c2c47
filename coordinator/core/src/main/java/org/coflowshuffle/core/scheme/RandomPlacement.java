/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Random;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;

/**
 * Each reducer on a host drawn uniformly among those with a free slot and incoming bandwidth (the
 * paper's baseline; a host with no bandwidth left could never serve it).
 */
final class RandomPlacement extends ArrivalPlacement {

  private final Random random;

  RandomPlacement(long seed) {
    this.random = new Random(seed);
  }

  @Override
  void place(ClusterView view, ActiveCoflow a, int[] hostOf, int[] freeSlots) {
    for (int r = 0; r < hostOf.length; r++) {
      if (hostOf[r] >= 0) {
        continue;
      }
      int candidates = 0;
      for (int j = 0; j < freeSlots.length; j++) {
        candidates += usable(view, freeSlots, j) ? 1 : 0;
      }
      if (candidates == 0) {
        return;
      }
      int pick = random.nextInt(candidates);
      for (int j = 0; j < freeSlots.length; j++) {
        if (usable(view, freeSlots, j) && pick-- == 0) {
          hostOf[r] = j;
          freeSlots[j]--;
          break;
        }
      }
    }
  }

  private static boolean usable(ClusterView view, int[] freeSlots, int j) {
    return freeSlots[j] > 0 && view.hosts().get(j).inBytesPerSec() > 0;
  }
}
