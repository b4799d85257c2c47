/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PacerTest {

  private static final long MS = 1_000_000L;

  @Test
  void spacesChunksSoTheAverageIsTheRate() {
    Pacer p = new Pacer(1_000_000, 0); // 1 MB/s
    assertEquals(0, p.delayNanos(0), "the first chunk goes at once");
    assertEquals(5_000, p.chunkBytes(), "5 ms of data per chunk");
    p.sent(5_000);
    assertEquals(5 * MS, p.delayNanos(0));
    assertEquals(2 * MS, p.delayNanos(3 * MS));
    assertEquals(0, p.delayNanos(6 * MS), "late is never made up by a burst beyond one chunk");
    p.sent(5_000);
    assertEquals(4 * MS, p.delayNanos(6 * MS), "10 kB are due at 10 ms");
  }

  @Test
  void bytesSentAheadOfTheOldRateCountAtTheNewOne() {
    Pacer p = new Pacer(1_000_000, 0);
    p.sent(100_000); // due at 100 ms: at 20 ms, 80 kB are ahead of the schedule
    p.setRate(10_000_000, 20 * MS);
    assertEquals(8 * MS, p.delayNanos(20 * MS), "80 kB at 10 MB/s");
    p.sent(100_000);
    assertEquals(18 * MS, p.delayNanos(20 * MS));
    assertEquals(50_000, p.chunkBytes());
  }

  @Test
  void aFlowBehindItsScheduleStartsAfreshWithoutABurst() {
    Pacer p = new Pacer(1_000_000, 0);
    p.sent(5_000); // due at 5 ms, but nothing more to send until 1 s
    p.setRate(2_000_000, 1_000 * MS);
    assertEquals(0, p.delayNanos(1_000 * MS));
    p.sent(10_000);
    assertEquals(5 * MS, p.delayNanos(1_000 * MS), "the lag is not made up");
  }

  @Test
  void aFlowFarBehindItsScheduleMakesUpOnlyTheCatchUpOfItsLag() {
    Pacer p = new Pacer(1_000_000, 0);
    p.sent(5_000); // due at 5 ms; its socket stays full until 1 s
    assertEquals(0, p.delayNanos(1_000 * MS));
    p.sent(100_000); // 100 ms of data: the lag it may make up
    assertEquals(0, p.delayNanos(1_000 * MS));
    p.sent(5_000);
    assertEquals(5 * MS, p.delayNanos(1_000 * MS), "the rest of the lag is let go");
    p.sent(5_000);
    assertEquals(10 * MS, p.delayNanos(1_000 * MS), "then on schedule at the rate");
  }

  @Test
  void aPausedFlowKeepsWhatItSentAhead() {
    Pacer p = new Pacer(1_000_000, 0);
    p.sent(5_000); // due at 5 ms
    p.setRate(0, 1 * MS); // 4 kB ahead
    assertEquals(Long.MAX_VALUE, p.delayNanos(500 * MS));
    p.setRate(1_000_000, 500 * MS);
    assertEquals(4 * MS, p.delayNanos(500 * MS));
  }

  @Test
  void frequentRateChangesNeverAddUpToMoreThanTheRate() {
    // A flow always ready to send, its rate set again (to the same value or a little off) every
    // 30 ms, as the coordinator's pushes do: over 10 s it sends its rate's worth and one chunk.
    double rate = 50_000;
    Pacer p = new Pacer(rate, 0);
    long sent = 0;
    long nextChange = 30 * MS;
    for (long t = 0; t < 10_000 * MS; t += MS / 10) {
      if (t >= nextChange) {
        p.setRate(nextChange % (60 * MS) == 0 ? rate : rate * 1.0001, t);
        nextChange += 30 * MS;
      }
      if (p.delayNanos(t) == 0) {
        p.sent(p.chunkBytes());
        sent += p.chunkBytes();
      }
    }
    assertTrue(sent <= rate * 1.0001 * 10 + Pacer.MIN_CHUNK, "sent " + sent);
    assertTrue(sent >= rate * 10 - Pacer.MIN_CHUNK, "sent " + sent);
  }

  @Test
  void pausedAndUnlimited() {
    Pacer p = new Pacer(0, 0);
    assertEquals(Long.MAX_VALUE, p.delayNanos(123));
    p.setRate(Pacer.UNLIMITED, 5);
    p.sent(1L << 40);
    assertEquals(0, p.delayNanos(5));
    assertEquals(Pacer.UNLIMITED_CHUNK, p.chunkBytes());
  }

  @Test
  void chunksStayWithinBounds() {
    assertEquals(Pacer.MIN_CHUNK, new Pacer(1_000, 0).chunkBytes());
    assertEquals(Pacer.MAX_CHUNK, new Pacer(1e12, 0).chunkBytes());
    assertThrows(IllegalArgumentException.class, () -> new Pacer(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> new Pacer(Double.NaN, 0));
  }
}
