/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

/**
 * When the next chunk of one flow may go, so that the flow moves at its current rate: after {@code
 * B} bytes since the rate was set at time {@code t0}, the next chunk waits until {@code t0 + B /
 * rate}. The average rate is then exact over any stretch at one rate that the flow keeps up with, a
 * new rate takes effect at the next chunk, and a flow that falls behind makes up at most {@link
 * #CATCH_UP_NANOS} of its lag.
 *
 * <p>Pure and clock-free (times are passed in, in nanoseconds), so it is tested without sleeping.
 * Not thread-safe: one flow is paced by one event loop.
 */
public final class Pacer {

  /** Rate meaning "no limit". */
  public static final double UNLIMITED = Double.POSITIVE_INFINITY;

  /** Chunks carry about this much time at the current rate. */
  static final long CHUNK_NANOS = 5_000_000L;

  static final int MIN_CHUNK = 4 * 1024;
  static final int MAX_CHUNK = 256 * 1024;
  static final int UNLIMITED_CHUNK = 1024 * 1024;

  /**
   * How much of its lag a flow behind its schedule makes up. A flow falls behind while its socket
   * is full (its link is congested) or its event loop runs late; seconds of lag made up at once
   * would leave as a burst at the link's speed, filling the queue that the link's other flows, and
   * the acknowledgements of the flows coming in, wait in, until it drops their segments. The rest
   * of the lag is let go: the flow delivers less than its rate, its receiver reports what arrived,
   * and the coordinator plans what is left. A tenth of a second absorbs an event loop that runs
   * late on a busy machine, and bounds a link's burst to a tenth of a second of its rates.
   */
  static final long CATCH_UP_NANOS = 100_000_000L;

  private double rate;
  private long epochNanos;
  private long sentSinceEpoch;

  /**
   * @param bytesPerSecond the starting rate: positive, {@link #UNLIMITED}, or 0 for paused
   * @param nowNanos the current time
   */
  public Pacer(double bytesPerSecond, long nowNanos) {
    setRate(bytesPerSecond, nowNanos);
  }

  /**
   * Sets a new rate from now on. Bytes sent ahead of the old rate's schedule (the last chunk, whose
   * time has not passed yet) still count, now at the new rate: otherwise every change would let a
   * chunk go early, and with the coordinator changing a flow's rate several times a second the
   * flows of one host would together overshoot their rates by more than the link has spare. A flow
   * behind its schedule (it had nothing to send, or the socket was full) starts afresh, with no
   * burst to catch up.
   *
   * @throws IllegalArgumentException for a negative or NaN rate
   */
  public void setRate(double bytesPerSecond, long nowNanos) {
    if (!(bytesPerSecond >= 0)) {
      throw new IllegalArgumentException("rate must be >= 0 bytes/s: " + bytesPerSecond);
    }
    long ahead = 0; // bytes sent beyond what the old rate allowed by now
    if (rate == 0) {
      ahead = sentSinceEpoch; // paused: what was ahead when it paused is still ahead
    } else if (rate != UNLIMITED) {
      ahead = (long) Math.max(0, sentSinceEpoch - (nowNanos - epochNanos) / 1e9 * rate);
    }
    rate = bytesPerSecond;
    epochNanos = nowNanos;
    sentSinceEpoch = ahead;
  }

  public double rate() {
    return rate;
  }

  /**
   * Nanoseconds to wait before the next chunk may be sent: 0 when it may go now, {@link
   * Long#MAX_VALUE} while paused. Lets go of lag beyond {@link #CATCH_UP_NANOS}.
   */
  public long delayNanos(long nowNanos) {
    if (rate == UNLIMITED) {
      return 0;
    }
    if (rate == 0) {
      return Long.MAX_VALUE;
    }
    long due = epochNanos + (long) (sentSinceEpoch / rate * 1e9);
    if (nowNanos - due > CATCH_UP_NANOS) {
      epochNanos = nowNanos - CATCH_UP_NANOS;
      sentSinceEpoch = 0;
      return 0;
    }
    return Math.max(0, due - nowNanos);
  }

  /** Size of the next chunk: about {@link #CHUNK_NANOS} of data at the current rate. */
  public int chunkBytes() {
    if (rate == UNLIMITED) {
      return UNLIMITED_CHUNK;
    }
    double bytes = rate * CHUNK_NANOS / 1e9;
    return (int) Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, bytes));
  }

  /** Records that {@code bytes} were handed to the network. */
  public void sent(long bytes) {
    sentSinceEpoch += bytes;
  }
}
