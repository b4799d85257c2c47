/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.junit.jupiter.api.Test;

/** Coflow weights in Algorithm 1's order: remaining time over weight. */
class WeightedSrtfTest {

  /** A short coflow (1 unit) and a long one (1.5 units) from two senders into one receiver. */
  private static Instance shortAndLong(double longWeight) {
    List<Host> hosts = List.of(Host.of("r", 1, 1), Host.sender("a", 1), Host.sender("b", 1));
    return new Instance(
        hosts,
        List.of(
            PaperExamples.pinned("short", 0, new double[][] {{1, 0, 1}}),
            PaperExamples.pinned("long", 0, new double[][] {{2, 0, 1.5}}).withWeight(longWeight)));
  }

  @Test
  void aHeavierCoflowGoesFirstWhenItsTimeOverWeightIsShorter() {
    for (String scheme : List.of("rpc", "rpc-faithful")) {
      var equal = PaperExamples.run("weights 1:1", scheme, shortAndLong(1));
      assertEquals(1.0, equal.coflows().get(0).cct(), 1e-9, scheme); // the paper's SRTF
      assertEquals(2.5, equal.coflows().get(1).cct(), 1e-9, scheme);
      var heavy = PaperExamples.run("weights 1:2", scheme, shortAndLong(2)); // 0.75 < 1
      assertEquals(2.5, heavy.coflows().get(0).cct(), 1e-9, scheme);
      assertEquals(1.5, heavy.coflows().get(1).cct(), 1e-9, scheme);
      var light = PaperExamples.run("weights 1:1.2", scheme, shortAndLong(1.2)); // 1.25 > 1
      assertEquals(1.0, light.coflows().get(0).cct(), 1e-9, scheme);
    }
  }
}
