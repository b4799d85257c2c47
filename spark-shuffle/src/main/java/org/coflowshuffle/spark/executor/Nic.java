/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The network interface an executor's address is on, as the kernel reports it: its speed ({@code
 * /sys/class/net/<name>/speed}), the most its machine's link can carry and an upper bound for the
 * coordinator's measurement, and the bytes it has carried ({@code /proc/net/dev}), from which the
 * coordinator learns what the link does carry and what other traffic takes of it. Virtual
 * interfaces report their nominal speed (a veth: 10 Gbit/s) whatever shapes them, so the speed is
 * never taken as the link's itself.
 */
final class Nic {

  private static final Path COUNTERS = Path.of("/proc/net/dev");

  /**
   * A read slower than this is not dated, as the counts were taken somewhere within it: a count
   * dated a tenth of a second late (a garbage collection while the read's text is parsed) makes the
   * second after it look a tenth faster, and the coordinator takes what a link carried for its
   * speed.
   */
  static final long MOST_READ_MILLIS = 20;

  private final String name;

  private Nic(String name) {
    this.name = name;
  }

  /** The interface {@code host}'s address is on; null for loopback or when not found. */
  static Nic of(String host) {
    try {
      NetworkInterface nic = NetworkInterface.getByInetAddress(InetAddress.getByName(host));
      return nic == null || nic.isLoopback() ? null : new Nic(nic.getName());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Bytes per second, or 0 when not known (no such file, a speed of -1). */
  double speed() {
    try {
      return parseSpeed(Files.readString(Path.of("/sys/class/net", name, "speed")));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Bytes received and sent since the interface came up; null when the kernel does not say. */
  long[] counts() {
    try {
      return parseCounts(Files.readString(COUNTERS), name);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Bytes received and sent, and when they were read (epoch milliseconds, halfway through the
   * read); null when the kernel does not say or the read took longer than {@link
   * #MOST_READ_MILLIS}.
   */
  long[] datedCounts() {
    return dated(System::currentTimeMillis, this::counts);
  }

  /** {@code read}'s counts and the time halfway through it, or null (see {@link #datedCounts}). */
  static long[] dated(LongSupplier clock, Supplier<long[]> read) {
    long before = clock.getAsLong();
    long[] c = read.get();
    long after = clock.getAsLong();
    return c == null || after - before > MOST_READ_MILLIS
        ? null
        : new long[] {c[0], c[1], before + (after - before) / 2};
  }

  /** A speed file's content, Mbit/s, as bytes per second; 0 when not a positive number. */
  static double parseSpeed(String mbit) {
    try {
      long v = Long.parseLong(mbit.trim());
      return v > 0 ? v * 125_000.0 : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The bytes received and sent of interface {@code name} in the content of {@code /proc/net/dev}
   * (a line {@code name: rxBytes rxPackets ... (8 fields) txBytes ...}); null when no line is that
   * interface's or it does not parse.
   */
  static long[] parseCounts(String procNetDev, String name) {
    for (String line : procNetDev.split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
        String[] f = line.substring(colon + 1).trim().split("\\s+");
        try {
          return f.length > 8 ? new long[] {Long.parseLong(f[0]), Long.parseLong(f[8])} : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }
}
