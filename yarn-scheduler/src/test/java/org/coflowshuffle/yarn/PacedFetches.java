/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.PacedFetchClient;

/** A whole block from the service's paced port, as a reducer's client fetches it. */
final class PacedFetches {

  private PacedFetches() {}

  /**
   * Fetches {@code block} (qualified) from the paced port on loopback as {@code app}, with {@code
   * secrets} (null: without authenticating), at {@code rate}; waits at most 10 s.
   */
  static byte[] fetch(
      TransportConf conf, String app, SecretKeyHolder secrets, int port, String block, double rate)
      throws Exception {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (PacedFetchClient.Factory clients = new PacedFetchClient.Factory(conf, app, secrets);
        PacedFetchClient c = clients.connect("127.0.0.1", port)) {
      c.fetch(
              "flow",
              block,
              rate,
              (ByteBuf b) -> {
                byte[] bytes = new byte[b.readableBytes()];
                b.readBytes(bytes);
                got.writeBytes(bytes);
              })
          .get(10, TimeUnit.SECONDS);
    }
    return got.toByteArray();
  }
}
