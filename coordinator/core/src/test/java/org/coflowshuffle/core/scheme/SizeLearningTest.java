/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.ActiveCoflow;
import org.coflowshuffle.core.policy.ClusterView;
import org.coflowshuffle.core.policy.Decision;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.SizeKnowledge;
import org.junit.jupiter.api.Test;

/**
 * Coflows whose sizes are unknown, next to one whose size is known: pilots first, then the estimate
 * puts the coflow in the scheme's order.
 */
class SizeLearningTest {

  private static final double MB = 1e6;

  /** Twenty senders s0..s19 at 10 MB/s, a sender sK at 100 MB/s, a receiver R at 100 MB/s. */
  private static final List<Host> HOSTS = hosts();

  private static final int SK = 20;
  private static final int R = 21;

  private static List<Host> hosts() {
    List<Host> hosts = new ArrayList<>();
    for (int s = 0; s < 20; s++) {
      hosts.add(Host.sender("s" + s, 10 * MB));
    }
    hosts.add(Host.sender("sK", 100 * MB));
    hosts.add(Host.of("R", 100 * MB, 100 * MB));
    return hosts;
  }

  /** A coflow of one reducer, pinned on R, with a flow of {@code bytes[i]} from each sender. */
  private static ActiveCoflow onR(int index, int[] senders, double[] remaining, long version) {
    List<Flow> flows = new ArrayList<>();
    for (int i = 0; i < senders.length; i++) {
      flows.add(new Flow(senders[i], 0, Math.max(1, remaining[i])));
    }
    Coflow c = new Coflow("c" + index, 0, List.of(Reducer.free("r")), flows);
    return new ActiveCoflow(
        index,
        c,
        remaining.clone(),
        0,
        new int[] {R},
        new boolean[] {true},
        0,
        version,
        senders,
        new int[senders.length],
        null);
  }

  /** The known coflow K: 500 MB from sK, 5 s alone on R. */
  private static ActiveCoflow known() {
    return onR(0, new int[] {SK}, new double[] {500 * MB}, 0);
  }

  private static final int[] TWENTY = java.util.stream.IntStream.range(0, 20).toArray();

  /** The unknown coflow U: a flow from each of s0..s19; {@code left} is the view's placeholder. */
  private static ActiveCoflow unknown(double[] left, long version) {
    return onR(1, TWENTY, left, version);
  }

  private static SizeLearning rpc() {
    return new SizeLearning(Schemes.create("rpc", SchemeOptions.defaults()));
  }

  private static ClusterView view(ActiveCoflow... coflows) {
    return new ClusterView(0, HOSTS, List.of(coflows), new int[HOSTS.size()]);
  }

  private static double[] filled(double v) {
    double[] a = new double[20];
    Arrays.fill(a, v);
    return a;
  }

  @Test
  void aCoflowOfUnknownSizeSendsOnePilotOnItsWholePortsAndTheRestShareWhatIsLeft() {
    SizeLearning s = rpc();
    SizeKnowledge nothing = new SizeKnowledge(filledFlags(true), new double[20], new boolean[20]);
    Decision d = s.decide(view(unknown(filled(MB), 0)), Map.of(1, nothing));
    double[] r = d.assignments().get(0).rates();
    // max(1, 5% of 20 senders) = 1 pilot, at its sender's 10 MB/s; 19 flows share R's other 90.
    long pilots = Arrays.stream(r).filter(x -> Math.abs(x - 10 * MB) < 1e-6).count();
    long held = Arrays.stream(r).filter(x -> Math.abs(x - 90 * MB / 19) < 1e-6).count();
    assertEquals(1, pilots, Arrays.toString(r));
    assertEquals(19, held, Arrays.toString(r));
    assertTrue(Double.isNaN(s.estimate(1)), "no estimate before the pilot ends");
  }

  /**
   * Both coflows on R: the pilot runs, K is served on what the pilot leaves; when the pilot ends,
   * its size decides whether U goes before K (1 MB per flow: 19 MB left against K's 500 MB) or
   * after (100 MB per flow: 1.9 GB).
   */
  @Test
  void oncePilotsEndTheEstimateOrdersTheCoflowAmongTheOthers() {
    for (double flowBytes : new double[] {MB, 100 * MB}) {
      SizeLearning s = rpc();
      boolean[] ended = new boolean[20];
      double[] received = new double[20];
      SizeKnowledge know = new SizeKnowledge(filledFlags(true), received, ended);
      Decision first = s.decide(view(known(), unknown(filled(MB), 0)), Map.of(1, know));
      double[] u = first.assignments().get(1).rates();
      int pilot = -1;
      for (int k = 0; k < 20; k++) {
        if (u[k] > 0) {
          pilot = k;
        }
      }
      assertEquals(10 * MB, u[pilot], 1e-6, "the pilot first, on its whole sender port");
      assertEquals(90 * MB, first.assignments().get(0).rates()[0], 1e-6, "K gets what is left");
      assertEquals(10 * MB, Arrays.stream(u).sum(), 1e-6, "nothing left for U's other flows");

      received[pilot] = flowBytes; // the pilot delivered everything and ended
      ended[pilot] = true;
      double[] left = filled(MB);
      left[pilot] = 0;
      Decision next = s.decide(view(known(), unknown(left, 1)), Map.of(1, know));
      assertEquals(flowBytes, s.estimate(1), 1e-9, "the pilot's size is the estimate");
      double uRate = Arrays.stream(next.assignments().get(1).rates()).sum();
      double kRate = next.assignments().get(0).rates()[0];
      if (flowBytes == MB) {
        assertEquals(100 * MB, uRate, 1e-3, "estimated 19 MB: U goes first");
        assertEquals(0, kRate, 1e-3);
      } else {
        assertEquals(0, uRate, 1e-3, "estimated 1.9 GB: U waits behind K");
        assertEquals(100 * MB, kRate, 1e-3);
      }
    }
  }

  @Test
  void pilotsThatNeverEndCountWithWhatTheyReceivedOnceTheyTimeOut() {
    SizeLearning s = rpc();
    double[] received = new double[20];
    SizeKnowledge know = new SizeKnowledge(filledFlags(true), received, new boolean[20]);
    Decision first = s.decide(view(unknown(filled(MB), 0)), Map.of(1, know));
    assertEquals(SizeLearning.PILOT_TIMEOUT_SECONDS, first.wakeUpAt(), 1e-9, "woken to time out");
    int pilot = -1;
    for (int k = 0; k < 20; k++) {
      pilot = first.assignments().get(0).rates()[k] == 10 * MB ? k : pilot;
    }
    received[pilot] = 3 * MB; // and it never says it ended
    s.decide(at(SizeLearning.PILOT_TIMEOUT_SECONDS - 1, unknown(filled(MB), 1)), Map.of(1, know));
    assertTrue(Double.isNaN(s.estimate(1)), "still sampling");
    s.decide(at(SizeLearning.PILOT_TIMEOUT_SECONDS, unknown(filled(MB), 1)), Map.of(1, know));
    assertEquals(3 * MB, s.estimate(1), 1e-9, "the sample as it stands");
  }

  private static ClusterView at(double now, ActiveCoflow... coflows) {
    return new ClusterView(now, HOSTS, List.of(coflows), new int[HOSTS.size()]);
  }

  @Test
  void aCoflowWithSomeFlowsOfKnownSizeIsScheduledAtOnceOnTheirMean() {
    // Flows 0-9 known at 2 MB each; flows 10-19 unknown: estimated 2 MB each, no pilot.
    boolean[] unknown = new boolean[20];
    Arrays.fill(unknown, 10, 20, true);
    double[] view = filled(2 * MB);
    Arrays.fill(view, 10, 20, 7 * MB); // the caller's placeholder, not what is scheduled on
    SizeLearning s = rpc();
    ActiveCoflow partly = onR(1, TWENTY, filled(2 * MB), 0);
    ActiveCoflow placeholder =
        new ActiveCoflow(
            1,
            partly.coflow(),
            view,
            0,
            partly.hostOf(),
            partly.pinned(),
            0,
            0,
            partly.flowSource(),
            partly.flowReducer(),
            null);
    Decision d =
        s.decide(
            view(known(), placeholder),
            Map.of(1, new SizeKnowledge(unknown, new double[20], new boolean[20])));
    assertEquals(2 * MB, s.estimate(1), 1e-9);
    Decision asIfKnown =
        Schemes.create("rpc", SchemeOptions.defaults()).decide(view(known(), partly));
    assertArrayEquals(asIfKnown.assignments().get(1).rates(), d.assignments().get(1).rates(), 1e-6);
    assertArrayEquals(asIfKnown.assignments().get(0).rates(), d.assignments().get(0).rates(), 1e-6);
  }

  @Test
  void withEverySizeKnownItIsTheSchemeAlone() {
    ClusterView v = view(known(), onR(1, TWENTY, filled(MB), 0));
    Decision alone = Schemes.create("rpc", SchemeOptions.defaults()).decide(v);
    // A coflow of unknown size that is not in this view (none of its reducers fetch now) changes
    // nothing for those that are.
    SizeKnowledge elsewhere = new SizeKnowledge(filledFlags(true), new double[20], new boolean[20]);
    Decision wrapped = rpc().decide(v, Map.of(7, elsewhere));
    for (int i = 0; i < 2; i++) {
      assertArrayEquals(
          alone.assignments().get(i).rates(), wrapped.assignments().get(i).rates(), 0);
    }
  }

  @Test
  void aFlowPastItsEstimateIsStillAssumedToHaveSomethingLeft() {
    assertEquals(60, SizeKnowledge.left(100, 40), 1e-12);
    assertEquals(15, SizeKnowledge.left(100, 150), 1e-12, "10% of what it received");
    assertEquals(1, SizeKnowledge.left(0, 0), 1e-12, "never taken for done while it moves");
  }

  private static boolean[] filledFlags(boolean v) {
    boolean[] a = new boolean[20];
    Arrays.fill(a, v);
    return a;
  }
}
