/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.Test;

/** The client against a hand-written server: what it reads, and what it refuses to allocate. */
class CoordinatorClientTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  /**
   * A server that sends a challenge, a welcome after the hello, then {@code then} once the client
   * sent something more (so that the client is set up before it reads it).
   */
  private interface Then {
    void write(DataOutputStream out) throws IOException;
  }

  private static CompletableFuture<Void> serve(ServerSocket server, Then then) {
    return CompletableFuture.runAsync(
        () -> {
          try (Socket s = server.accept()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(FrameCodec.encode(new Message.Challenge(FrameCodec.VERSION, "n")));
            s.getInputStream().read(new byte[4096]); // the hello
            out.write(FrameCodec.encode(new Message.Welcome("session", "rpc")));
            s.getInputStream().read(new byte[4096]); // the go-ahead
            then.write(out);
            out.flush();
            s.getInputStream().read(); // until the client closes
          } catch (IOException e) {
            // the client closed first
          }
        });
  }

  private static CoordinatorClient connect(ServerSocket server) throws IOException {
    return CoordinatorClient.connect(
        new InetSocketAddress("127.0.0.1", server.getLocalPort()), "test", null, WAIT);
  }

  @Test
  void aLengthPastTheLimitFailsTheConnectionWithoutAllocatingIt() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      serve(server, out -> out.writeInt(Integer.MAX_VALUE));
      try (CoordinatorClient c = connect(server)) {
        c.send(new Message.Ping(1));
        IOException e = assertThrows(IOException.class, () -> c.receive(WAIT));
        assertTrue(
            e.getMessage().contains("frame of 2147483647 bytes; the limit is 1048576 bytes"),
            e.getMessage());
      }
    }
  }

  @Test
  void aNegativeLengthFailsTheConnection() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      serve(server, out -> out.writeInt(-5));
      try (CoordinatorClient c = connect(server)) {
        c.send(new Message.Ping(1));
        IOException e = assertThrows(IOException.class, () -> c.receive(WAIT));
        assertTrue(e.getMessage().contains("unreadable frame"), e.getMessage());
      }
    }
  }

  @Test
  void aPlacementOfManyReducersMayTakeALongerFrame() throws Exception {
    String reason = "x".repeat(3 << 20); // a 3 MB frame, as the answer for 5,000 reducers may be
    try (ServerSocket server = new ServerSocket(0)) {
      serve(
          server, out -> out.write(FrameCodec.encode(new Message.Error(ErrorCode.LIMIT, reason))));
      try (CoordinatorClient c = connect(server)) {
        c.expectPlacement(5_000);
        c.send(new Message.Ping(1));
        CoordinatorClient.RefusedException e =
            assertThrows(CoordinatorClient.RefusedException.class, () -> c.receive(WAIT));
        assertEquals(reason.length(), e.error().message().length(), "read whole");
      }
    }
  }
}
