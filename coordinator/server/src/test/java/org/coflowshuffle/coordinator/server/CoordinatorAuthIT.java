/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator with secrets refuses every client that cannot prove one, proves it back, and
 * refuses any frame after the hello that is not sealed as that connection's next.
 */
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

  @Test
  void aFrameChangedOnTheWayIsRefused() throws Exception {
    try (RawConnection c = RawConnection.hello(address, "s3cret")) {
      byte[] frame = c.seal(new Message.RegisterApp("app-with-a-long-enough-name"));
      frame[FrameCodec.LENGTH_BYTES + FrameCodec.HEADER_BYTES + 9] ^= 1; // one bit of the app
      c.write(frame);
      Message.Error e = (Message.Error) c.read();
      assertEquals(ErrorCode.UNAUTHENTICATED, e.code());
      assertTrue(e.message().contains("fails its integrity check"), e.message());
      assertTrue(c.closedByServer());
    }
    assertTrue(server.status().applications().isEmpty());
  }

  @Test
  void aReplayedOrUnsealedFrameAfterTheHelloIsRefused() throws Exception {
    try (RawConnection c = RawConnection.hello(address, "s3cret")) {
      byte[] ping = c.seal(new Message.Ping(7));
      c.write(ping);
      assertEquals(new Message.Pong(7), c.read());
      c.write(ping);
      assertEquals(ErrorCode.UNAUTHENTICATED, ((Message.Error) c.read()).code());
      assertTrue(c.closedByServer());
    }
    try (RawConnection c = RawConnection.hello(address, "s3cret")) {
      c.write(FrameCodec.encode(new Message.RegisterApp("unsealed")));
      assertEquals(ErrorCode.UNAUTHENTICATED, ((Message.Error) c.read()).code());
    }
    assertTrue(server.status().applications().isEmpty());
  }

  @Test
  void aClientWithASecretRefusesACoordinatorThatCannotProveIt() throws Exception {
    try (CoordinatorServer open = CoordinatorServer.start(CoordinatorConf.defaults(0, 0))) {
      InetSocketAddress at = new InetSocketAddress("127.0.0.1", open.address().getPort());
      IOException e =
          assertThrows(
              IOException.class, () -> CoordinatorClient.connect(at, "driver", "s3cret", WAIT));
      assertTrue(e.getMessage().contains("did not prove it knows the secret"), e.getMessage());
    }
  }

  @Test
  void eachPrincipalProvesItsOwnSecret(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("secrets");
    Files.writeString(file, "# teams\nteam-a = secret-a\nteam-b=secret-b\n");
    try (CoordinatorServer s =
        CoordinatorServer.start(
            CoordinatorConf.from(
                Map.of(
                    "coflow.coordinator.port", "0",
                    "coflow.coordinator.httpPort", "0",
                    "coflow.coordinator.secretsFile", file.toString(),
                    "coflow.coordinator.bindAddress", "127.0.0.1")))) {
      InetSocketAddress at = new InetSocketAddress("127.0.0.1", s.address().getPort());
      try (CoordinatorClient a =
              CoordinatorClient.connect(at, "driver", "team-a", "secret-a", WAIT);
          CoordinatorClient b =
              CoordinatorClient.connect(at, "driver", "team-b", "secret-b", WAIT)) {
        a.send(new Message.RegisterApp("app-a"));
        a.send(new Message.Ping(1)); // its pong: the registration was applied
        assertEquals(new Message.Pong(1), a.await(Message.Pong.class, WAIT));
        b.send(new Message.RegisterShuffle("app-a", 0, 1, 1));
        assertEquals(ErrorCode.NOT_ALLOWED, refusal(b).code(), "team-b acts on app-a");
        a.send(new Message.Ping(2));
        assertEquals(new Message.Pong(2), a.await(Message.Pong.class, WAIT), "a is still served");
      }
      assertRefused(at, "team-a", "secret-b", "of principal team-a");
      assertRefused(at, "nobody", "secret-a", "no secret for principal nobody");
      assertRefused(at, null, "secret-a", "knows secrets by principal only");
    }
  }

  private static Message.Error refusal(CoordinatorClient c) {
    CoordinatorClient.RefusedException e =
        assertThrows(
            CoordinatorClient.RefusedException.class, () -> c.await(Message.Pong.class, WAIT));
    return e.error();
  }

  private static void assertRefused(
      InetSocketAddress at, String principal, String secret, String why) {
    CoordinatorClient.RefusedException e =
        assertThrows(
            CoordinatorClient.RefusedException.class,
            () -> CoordinatorClient.connect(at, "driver", principal, secret, WAIT));
    assertEquals(ErrorCode.UNAUTHENTICATED, e.error().code());
    assertTrue(e.error().message().contains(why), e.error().message());
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
