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
 * PORT SECONDS} writes as fast as it can for that long.
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
      long end = System.nanoTime() + (long) (Double.parseDouble(args[3]) * 1e9);
      try (Socket s = new Socket(args[1], Integer.parseInt(args[2]));
          OutputStream out = s.getOutputStream()) {
        while (System.nanoTime() < end) {
          out.write(buf);
        }
      }
    }
  }
}
