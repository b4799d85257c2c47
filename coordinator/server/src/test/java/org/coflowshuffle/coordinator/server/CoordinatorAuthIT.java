/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.HelloProof;
import org.coflowshuffle.coordinator.protocol.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A coordinator with a shared secret refuses every client that cannot prove it. */
class CoordinatorAuthIT {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private CoordinatorServer server;
  private InetSocketAddress address;

  @BeforeEach
  void start() throws Exception {
    server =
        CoordinatorServer.start(
            CoordinatorConf.from(
                Map.of(
                    "coflow.coordinator.port", "0",
                    "coflow.coordinator.httpPort", "0",
                    "coflow.coordinator.secret", "s3cret",
                    "coflow.coordinator.bindAddress", "127.0.0.1")));
    address = new InetSocketAddress("127.0.0.1", server.address().getPort());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theRightSecretIsWelcome() throws Exception {
    try (CoordinatorClient c = CoordinatorClient.connect(address, "driver", "s3cret", WAIT)) {
      assertEquals("rpc", c.welcome().scheme());
    }
  }

  @Test
  void noSecretIsRefused() {
    assertRefused(null, "the hello has no proof");
  }

  @Test
  void aWrongSecretIsRefused() {
    assertRefused("guess", "does not match");
  }

  @Test
  void aReplayedHelloIsRefused() throws Exception {
    byte[] captured;
    try (RawConnection first = new RawConnection(address)) {
      captured =
          FrameCodec.encode(
              new Message.Hello("driver", HelloProof.prove("s3cret", first.challenge.nonce())));
      first.write(captured);
      assertTrue(first.read() instanceof Message.Welcome);
    }
    try (RawConnection replay = new RawConnection(address)) {
      replay.write(captured);
      Message.Error e = (Message.Error) replay.read();
      assertEquals(ErrorCode.UNAUTHENTICATED, e.code(), e.message());
      assertTrue(replay.closedByServer());
    }
  }

  @Test
  void nothingIsAcceptedBeforeTheHello() throws Exception {
    try (RawConnection c = new RawConnection(address)) {
      c.send(new Message.RegisterApp("sneaky"));
      Message.Error e = (Message.Error) c.read();
      assertEquals(ErrorCode.OUT_OF_ORDER, e.code());
      assertTrue(e.message().contains("before the hello"), e.message());
      assertTrue(c.closedByServer());
    }
    assertTrue(server.status().applications().isEmpty());
  }

  @Test
  void aSecondHelloIsRefused() throws Exception {
    try (RawConnection c = RawConnection.hello(address, "s3cret")) {
      c.send(new Message.Hello("again", HelloProof.prove("s3cret", c.challenge.nonce())));
      Message.Error e = (Message.Error) c.read();
      assertEquals(ErrorCode.OUT_OF_ORDER, e.code());
      assertTrue(c.closedByServer());
    }
  }

  private void assertRefused(String secret, String why) {
    CoordinatorClient.RefusedException e =
        assertThrows(
            CoordinatorClient.RefusedException.class,
            () -> CoordinatorClient.connect(address, "driver", secret, WAIT));
    assertEquals(ErrorCode.UNAUTHENTICATED, e.error().code());
    assertTrue(e.error().message().contains(why), e.error().message());
  }
}
