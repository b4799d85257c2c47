/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Hand-computed values of the closed form of LP (3). */
class RateBoundTest {

  @Test
  void theBusiestSenderBinds() {
    // (3a): 40 / 200 = 0.2; (3b): host 0 sends 150 at 10, 1/15; host 1 sends 50 at 100, 2.
    double f =
        RateBound.maxFrequency(
            new double[] {100, 50, 50}, new int[] {0, 0, 1}, new double[] {10, 100}, 40);
    assertEquals(10.0 / 150, f, 1e-15);
  }

  @Test
  void theReducerSideBinds() {
    // (3a): 30 / 300 = 0.1; senders allow 1 and 2.
    double f =
        RateBound.maxFrequency(
            new double[] {100, 200}, new int[] {0, 1}, new double[] {100, 400}, 30);
    assertEquals(0.1, f, 1e-15);
  }

  @Test
  void aHostThatSendsNothingDoesNotBind() {
    double f = RateBound.maxFrequency(new double[] {8}, new int[] {1}, new double[] {0, 4}, 1000);
    assertEquals(0.5, f, 1e-15);
  }

  @Test
  void badInputsNameTheFlowOrHost() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RateBound.maxFrequency(new double[] {1}, new int[] {2}, new double[] {1}, 1));
    assertEquals("flow 0: sender 2 is not one of 1 hosts", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> RateBound.maxFrequency(new double[] {-1}, new int[] {0}, new double[] {1}, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> RateBound.maxFrequency(new double[] {1}, new int[] {0}, new double[] {-1}, 1));
  }
}
