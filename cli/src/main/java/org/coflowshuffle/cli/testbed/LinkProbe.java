/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * An iperf-style probe run inside testbed namespaces: {@code listen PORT} receives one connection
 * and prints {@code received BYTES SECONDS} (from its first byte to its last); {@code send HOST
 * PORT SECONDS [MBIT]} writes for that long, as fast as it can or at {@code MBIT} Mbit/s (never
 * faster, to make up for a time other traffic held it back, than a tenth of a second's worth).
 */
public final class LinkProbe {

  private static final long CATCH_UP_NANOS = 100_000_000;

  private LinkProbe() {}

  public static void main(String[] args) throws Exception {
    byte[] buf = new byte[64 * 1024];
    if (args[0].equals("listen")) {
      try (ServerSocket server = new ServerSocket()) {
        server.bind(new InetSocketAddress(Integer.parseInt(args[1])));
        System.out.println("listening");
        System.out.flush();
        try (Socket s = server.accept();
            InputStream in = s.getInputStream()) {
          long first = 0;
          long last = 0;
          long bytes = 0;
          int n;
          while ((n = in.read(buf)) >= 0) {
            last = System.nanoTime();
            if (bytes == 0) {
              first = last;
            }
            bytes += n;
          }
          System.out.println("received " + bytes + " " + (last - first) / 1e9);
        }
      }
    } else {
      long start = System.nanoTime();
      long end = start + (long) (Double.parseDouble(args[3]) * 1e9);
      double bytesPerNano = args.length > 4 ? Double.parseDouble(args[4]) * 125_000 / 1e9 : 0;
      long due = start; // when the next buffer may go
      try (Socket s = new Socket(args[1], Integer.parseInt(args[2]));
          OutputStream out = s.getOutputStream()) {
        for (long now = start; now < end; now = System.nanoTime()) {
          if (due > now) {
            Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
            continue;
          }
          out.write(buf);
          if (bytesPerNano > 0) {
            // Steady: time lost while the link was full is not made up with a burst later.
            due = Math.max(due, now - CATCH_UP_NANOS) + (long) (buf.length / bytesPerNano);
          }
        }
      }
    }
  }
}
