package org.coflowshuffle.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
  void aNewRateCountsFromItsOwnStart() {
    Pacer p = new Pacer(1_000_000, 0);
    p.sent(100_000); // due at 100 ms
    p.setRate(10_000_000, 20 * MS);
    assertEquals(0, p.delayNanos(20 * MS), "bytes sent before the change no longer count");
    p.sent(100_000);
    assertEquals(10 * MS, p.delayNanos(20 * MS));
    assertEquals(50_000, p.chunkBytes());
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
