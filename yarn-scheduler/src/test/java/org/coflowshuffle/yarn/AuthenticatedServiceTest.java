/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.AppSecrets;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.Pacer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service with {@code spark.authenticate} on, as a secured YARN cluster runs it, over real
 * sockets: Spark's protocol admits an application only with its own secret, as YARN handed it to
 * the service, and only to its own executors' blocks, on both ports.
 */
class AuthenticatedServiceTest {

  private static final ApplicationId APP = ApplicationId.newInstance(1795000000000L, 7);
  private static final ApplicationId OTHER = ApplicationId.newInstance(1795000000000L, 8);
  private static final TransportConf TRANSPORT =
      new TransportConf("shuffle", MapConfigProvider.EMPTY);

  @TempDir Path dir;
  private final CoflowShuffleService service = new CoflowShuffleService();
  private int port;

  @BeforeEach
  void start() throws Exception {
    Configuration c = new Configuration(false);
    c.setInt(ShuffleServiceConf.SPARK_PORT.name(), 0);
    c.setInt(ShuffleServiceConf.PACED_PORT.name(), 0);
    c.setBoolean(ShuffleServiceConf.STOP_ON_FAILURE.name(), true);
    c.setBoolean(ShuffleServiceConf.AUTHENTICATE.name(), true);
    service.init(c);
    service.start();
    port = service.servers().sparkPort();
    // With the service's recovery off Spark hands the secret inside JSON, else the bare string.
    service.initializeApplication(data(APP, "{\"secret\":\"app-secret\",\"other\":1}"));
    service.initializeApplication(data(OTHER, "other-secret"));
    ExecutorShuffleInfo exec = ShuffleFiles.executor(dir.resolve("exec"));
    ShuffleFiles.write(exec, 0, 5, new byte[][] {"r0".getBytes(StandardCharsets.UTF_8)});
    try (ExternalBlockStoreClient spark = client(APP, "app-secret")) {
      spark.registerWithShuffleServer("127.0.0.1", port, "1", exec);
    }
  }

  @AfterEach
  void stop() {
    service.stop();
  }

  private static ApplicationInitializationContext data(ApplicationId app, String payload) {
    return new ApplicationInitializationContext(
        "user", app, ByteBuffer.wrap(payload.getBytes(StandardCharsets.UTF_8)));
  }

  private static ExternalBlockStoreClient client(ApplicationId app, String secret) {
    ExternalBlockStoreClient c =
        new ExternalBlockStoreClient(TRANSPORT, AppSecrets.of(secret), true, 10_000);
    c.init(app.toString());
    return c;
  }

  /** Asks for the application's block over a connection that authenticated as {@code as}. */
  private ByteBuffer openBlock(ApplicationId as, String secret) throws Exception {
    try (TransportContext context = new TransportContext(TRANSPORT, new NoOpRpcHandler());
        TransportClientFactory factory =
            context.createClientFactory(
                secret == null
                    ? List.of()
                    : List.of(
                        new AuthClientBootstrap(
                            TRANSPORT, as.toString(), AppSecrets.of(secret))))) {
      TransportClient client = factory.createClient("127.0.0.1", port);
      return client.sendRpcSync(
          new OpenBlocks(APP.toString(), "1", new String[] {"shuffle_0_5_0"}).toByteBuffer(),
          10_000);
    }
  }

  /** Fetches the application's block from the paced port as {@code as}; null: no secret. */
  private byte[] fetchPaced(ApplicationId as, String secret) throws Exception {
    return PacedFetches.fetch(
        TRANSPORT,
        as.toString(),
        secret == null ? null : AppSecrets.of(secret),
        service.servers().pacedPort(),
        BlockSource.qualified(APP.toString(), "1", "shuffle_0_5_0"),
        Pacer.UNLIMITED);
  }

  @Test
  void thePacedPortServesTheApplicationItsBlocksAndNobodyElse() throws Exception {
    assertArrayEquals("r0".getBytes(StandardCharsets.UTF_8), fetchPaced(APP, "app-secret"));
    ExecutionException none = assertThrows(ExecutionException.class, () -> fetchPaced(APP, null));
    assertTrue(none.getMessage().contains("refused"), none.getMessage());
    assertThrows(IOException.class, () -> fetchPaced(APP, "guess"));
    ExecutionException other =
        assertThrows(ExecutionException.class, () -> fetchPaced(OTHER, "other-secret"));
    assertTrue(
        other
            .getCause()
            .getMessage()
            .endsWith("application " + OTHER + " may not fetch blocks of " + APP),
        other.getCause().getMessage());
  }

  @Test
  void theApplicationWithItsSecretOpensItsBlocks() throws Exception {
    assertTrue(openBlock(APP, "app-secret").remaining() > 0, "a stream handle");
  }

  @Test
  void noSecretAWrongOneOrAnotherApplicationsGetsNothing() {
    Map<String, Exception> refused =
        Map.of(
            "no secret", assertThrows(Exception.class, () -> openBlock(APP, null)),
            "a wrong secret", assertThrows(Exception.class, () -> openBlock(APP, "guess")),
            "another application's secret",
                assertThrows(Exception.class, () -> openBlock(OTHER, "other-secret")));
    refused.forEach((how, e) -> assertTrue(e.getMessage() != null, how + ": " + e));
    assertTrue(
        refused.get("another application's secret").getMessage().contains("not authorized"),
        refused.get("another application's secret").getMessage());
  }

  @Test
  void aStoppedApplicationsSecretNoLongerOpensAnything() throws Exception {
    service.stopApplication(new ApplicationTerminationContext(APP));
    assertThrows(Exception.class, () -> openBlock(APP, "app-secret"));
  }
}
