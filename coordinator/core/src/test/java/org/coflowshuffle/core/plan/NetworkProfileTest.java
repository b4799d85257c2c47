/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Host;
import org.junit.jupiter.api.Test;

/** B reset for the next invocation is the B a new profile would be: nothing of the last is kept. */
class NetworkProfileTest {

  @Test
  void aResetProfileAnswersAsANewOne() {
    Random random = new Random(3);
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < 12; j++) {
      hosts.add(
          new Host(
              "h" + j,
              1 + random.nextInt(9),
              1 + random.nextInt(9),
              random.nextBoolean() ? Host.UNLIMITED_SLOTS : 1 + random.nextInt(3),
              j % 4 != 0));
    }
    int m = hosts.size();
    NetworkProfile reused = new NetworkProfile(0, hosts, new int[m]);
    for (int invocation = 1; invocation <= 50; invocation++) {
      spend(reused, random); // what an invocation does to B
      double now = invocation * 2.5;
      int[] inUse = new int[m];
      double[][] freeing = new double[m][];
      for (int j = 0; j < m; j++) {
        inUse[j] = random.nextInt(3);
        freeing[j] = random.nextBoolean() ? new double[0] : new double[] {now + 1, now + 4};
      }
      double[][] slotsFreeing = random.nextBoolean() ? freeing : null;
      reused.reset(now, inUse, slotsFreeing);
      NetworkProfile fresh = new NetworkProfile(now, hosts, inUse, slotsFreeing);
      assertSame(fresh, reused, "invocation " + invocation);
    }
  }

  /** Reservations, consumption and slots taken at random, over several epochs. */
  private static void spend(NetworkProfile net, Random random) {
    for (int change = 0; change < 20; change++) {
      int j = random.nextInt(net.hostCount());
      LinkProfile link = random.nextBoolean() ? net.in(j) : net.out(j);
      double from = net.now() + random.nextDouble() * 10;
      switch (random.nextInt(4)) {
        case 0 -> link.reserve(from, from + random.nextDouble() * 5, random.nextDouble() * 3);
        case 1 -> link.consume(random.nextDouble() * 20);
        case 2 -> link.takeNow(random.nextDouble());
        default -> net.takeSlot(j);
      }
      if (random.nextInt(5) == 0) {
        net.nextEpoch();
      }
    }
    net.fastestReceiverFreeNow();
  }

  private static void assertSame(NetworkProfile want, NetworkProfile got, String where) {
    assertEquals(want.now(), got.now(), where);
    assertEquals(want.epoch(), got.epoch(), where);
    assertEquals(want.slotsLimited(), got.slotsLimited(), where);
    assertEquals(want.anySlotFreeingLater(), got.anySlotFreeingLater(), where);
    assertEquals(want.fastestReducerHost(), got.fastestReducerHost(), where);
    assertEquals(want.fastestReceiverFreeNow(), got.fastestReceiverFreeNow(), where);
    for (int j = 0; j < want.hostCount(); j++) {
      String host = where + ", host " + j;
      assertEquals(want.freeSlots(j), got.freeSlots(j), host);
      assertEquals(want.freeSlotsNow(j), got.freeSlotsNow(j), host);
      for (int k = 0; k < 4; k++) {
        assertEquals(want.slotFree(j, k), got.slotFree(j, k), host + ", slot " + k);
      }
      assertFalse(got.inChangedSince(j, 0), host);
      assertFalse(got.outChangedSince(j, 0), host);
      for (double t : new double[] {got.now(), got.now() + 1, got.now() + 100}) {
        assertEquals(want.in(j).bytesBy(t), got.in(j).bytesBy(t), host);
        assertEquals(want.out(j).bytesBy(t), got.out(j).bytesBy(t), host);
      }
      assertEquals(want.in(j).rateNow(), got.in(j).rateNow(), host);
      assertEquals(want.out(j).finalRate(), got.out(j).finalRate(), host);
      assertEquals(want.in(j).isConstant(), got.in(j).isConstant(), host);
    }
  }
}
