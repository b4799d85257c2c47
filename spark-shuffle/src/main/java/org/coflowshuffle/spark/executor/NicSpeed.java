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

/**
 * The speed of the network interface an executor's address is on, as the kernel reports it ({@code
 * /sys/class/net/<name>/speed}, Mbit/s): the most its machine's link can carry, an upper bound for
 * the coordinator's measurement. Virtual interfaces report their nominal speed (a veth: 10 Gbit/s)
 * whatever shapes them, so this is never taken as the link's speed itself.
 */
final class NicSpeed {

  private NicSpeed() {}

  /** Bytes per second, or 0 when not known (loopback, no such file, a speed of -1). */
  static double of(String host) {
    try {
      NetworkInterface nic = NetworkInterface.getByInetAddress(InetAddress.getByName(host));
      if (nic == null || nic.isLoopback()) {
        return 0;
      }
      return parse(Files.readString(Path.of("/sys/class/net", nic.getName(), "speed")));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** A speed file's content, Mbit/s, as bytes per second; 0 when not a positive number. */
  static double parse(String mbit) {
    try {
      long v = Long.parseLong(mbit.trim());
      return v > 0 ? v * 125_000.0 : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
