/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A packet capture of the loopback interface by tcpdump (Debian's package, installed on first use:
 * the tests run as root, as CI does).
 */
final class Packets implements AutoCloseable {

  private final Process tcpdump;

  private Packets(Process tcpdump) {
    this.tcpdump = tcpdump;
  }

  static void ensureTcpdump() throws Exception {
    if (new ProcessBuilder("sh", "-c", "command -v tcpdump").start().waitFor() == 0) {
      return;
    }
    Process p =
        new ProcessBuilder(
                "sh", "-c", "apt-get update -qq && apt-get install -y -qq tcpdump > /dev/null")
            .inheritIO()
            .start();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "apt-get install tcpdump took too long");
    assertEquals(0, p.exitValue(), "apt-get install tcpdump failed (needs root, as CI has)");
  }

  /** Captures whole packets on loopback into {@code file} until closed. */
  static Packets capture(Path file, Path log) throws Exception {
    Process p =
        new ProcessBuilder("tcpdump", "-i", "lo", "-n", "-U", "-s", "0", "-w", file.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.readString(log).contains("listening on")) {
      assertTrue(p.isAlive(), "tcpdump ended: " + Files.readString(log));
      assertTrue(System.nanoTime() < until, "tcpdump did not start: " + Files.readString(log));
      Thread.sleep(50);
    }
    return new Packets(p);
  }

  /** The packets of {@code capture} that match the tcpdump {@code filter}, as a pcap file. */
  static byte[] filter(Path capture, String filter) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("tcpdump", "-r", capture.toString(), "-w", "-", filter).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertEquals(0, p.waitFor(), "tcpdump -r " + capture + " " + filter);
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    tcpdump.destroy(); // SIGTERM: tcpdump writes what it holds and ends
    tcpdump.waitFor(30, TimeUnit.SECONDS);
  }
}
