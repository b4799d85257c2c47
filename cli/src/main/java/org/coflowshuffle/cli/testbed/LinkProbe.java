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
 * PORT SECONDS [MBIT]} writes for that long, as fast as it can or at {@code MBIT} Mbit/s.
 */
public final class LinkProbe {

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
      long sent = 0;
      try (Socket s = new Socket(args[1], Integer.parseInt(args[2]));
          OutputStream out = s.getOutputStream()) {
        for (long now = start; now < end; now = System.nanoTime()) {
          long due = bytesPerNano > 0 ? start + (long) (sent / bytesPerNano) : now;
          if (due > now) {
            Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
            continue;
          }
          out.write(buf);
          sent += buf.length;
        }
      }
    }
  }
}
