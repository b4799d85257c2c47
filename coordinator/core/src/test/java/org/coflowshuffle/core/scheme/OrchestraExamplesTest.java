/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.junit.jupiter.api.Test;

/** Orchestra's Weighted Shuffle Scheduling against fair sharing, on the paper's Fig. 8 shuffle. */
class OrchestraExamplesTest {

  /**
   * Receivers r1, r2 (hosts 0, 1); senders 2.. : {@code alone} senders with one unit for r1 only,
   * as many for r2 only, and one shared sender with {@code shared} units for each receiver. Every
   * link carries one unit per second.
   */
  private static Instance shuffle(int alone, double shared) {
    List<Host> hosts = new ArrayList<>(List.of(Host.of("r1", 1, 1), Host.of("r2", 1, 1)));
    List<double[]> flows = new ArrayList<>();
    for (int s = 0; s < 2 * alone; s++) {
      hosts.add(Host.sender("s" + s, 1));
      flows.add(new double[] {hosts.size() - 1, s < alone ? 0 : 1, 1});
    }
    hosts.add(Host.sender("shared", 1));
    flows.add(new double[] {hosts.size() - 1, 0, shared});
    flows.add(new double[] {hosts.size() - 1, 1, shared});
    return new Instance(
        hosts, List.of(PaperExamples.pinned("shuffle", 0, flows.toArray(new double[0][]))));
  }

  @Test
  void fig8FairSharingTakesFiveSecondsAndWssFour() {
    System.out.println("Orchestra Fig. 8, paper: fair 5 s, WSS 4 s");
    Instance fig8 = shuffle(2, 2);
    assertEquals(5.0, PaperExamples.run("Fig. 8", "fair", fig8).coflows().get(0).cct(), 1e-9);
    assertEquals(4.0, PaperExamples.run("Fig. 8", "wss", fig8).coflows().get(0).cct(), 1e-9);
  }

  @Test
  void withAHundredSendersPerReceiverWssIs1495TimesFaster() {
    Instance wide = shuffle(100, 100);
    double fair = PaperExamples.run("Fig. 8 x100", "fair", wide).coflows().get(0).cct();
    double wss = PaperExamples.run("Fig. 8 x100", "wss", wide).coflows().get(0).cct();
    System.out.printf("Orchestra Fig. 8 x100: paper 1.495x, ours %.4fx%n", fair / wss);
    assertEquals(200.0, wss, 1e-6); // both links of the shared sender's receivers stay full
    assertEquals(1.495, fair / wss, 5e-4);
  }

  @Test
  void laterShufflesGetWhatEarlierOnesLeave() {
    // Two shuffles into r1 from different senders: FIFO serves the first alone.
    List<Host> hosts = List.of(Host.of("r1", 1, 1), Host.sender("a", 1), Host.sender("b", 1));
    Instance two =
        new Instance(
            hosts,
            List.of(
                PaperExamples.pinned("first", 0, new double[][] {{1, 0, 2}}),
                PaperExamples.pinned("second", 0, new double[][] {{2, 0, 1}})));
    var s = PaperExamples.run("FIFO", "wss", two);
    assertEquals(2.0, s.coflows().get(0).cct(), 1e-9);
    assertEquals(3.0, s.coflows().get(1).cct(), 1e-9);
  }

  /** Two one-unit shuffles from senders a and b into {@code into[0]} and {@code into[1]}. */
  private static Instance twoShuffles(double highWeight, int[] into) {
    List<Host> hosts =
        List.of(Host.of("r1", 1, 1), Host.of("r2", 1, 1), Host.sender("a", 1), Host.sender("b", 1));
    return new Instance(
        hosts,
        List.of(
            PaperExamples.pinned("low", 0, new double[][] {{2, into[0], 1}}),
            PaperExamples.pinned("high", 0, new double[][] {{3, into[1], 1}})
                .withWeight(highWeight)));
  }

  @Test
  void priorityModeSharesALinkInProportionToTheWeights() {
    System.out.println("Orchestra priority: one link, weights 1 and 3");
    Instance oneLink = twoShuffles(3, new int[] {0, 0});
    var weighted = PaperExamples.run("priority 1:3", "wss-priority", oneLink);
    assertEquals(2.0, weighted.coflows().get(0).cct(), 1e-9); // a quarter, then all of the link
    assertEquals(4.0 / 3, weighted.coflows().get(1).cct(), 1e-9); // three quarters: 1.5x faster
    var equal = PaperExamples.run("priority 1:1", "wss-priority", twoShuffles(1, new int[] {0, 0}));
    assertEquals(2.0, equal.coflows().get(0).cct(), 1e-9); // fair sharing between the two
    assertEquals(2.0, equal.coflows().get(1).cct(), 1e-9);
    var fifo = PaperExamples.run("FIFO", "wss", oneLink); // the weight means nothing to FIFO
    assertEquals(1.0, fifo.coflows().get(0).cct(), 1e-9);
    assertEquals(2.0, fifo.coflows().get(1).cct(), 1e-9);
  }

  @Test
  void priorityModeLeavesNoLinkIdle() {
    var s = PaperExamples.run("priority apart", "wss-priority", twoShuffles(100, new int[] {0, 1}));
    assertEquals(1.0, s.coflows().get(0).cct(), 1e-9); // the low one is alone on its links
    assertEquals(1.0, s.coflows().get(1).cct(), 1e-9);
  }
}
