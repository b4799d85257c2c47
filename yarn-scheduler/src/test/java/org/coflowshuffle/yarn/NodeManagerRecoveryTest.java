/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.AppSecrets;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.Pacer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A NodeManager restart with {@code yarn.nodemanager.recovery.enabled}: the service that comes back
 * on the same recovery directory serves the executors registered before, to their application
 * authenticated with the secret YARN handed the service before, without either being told again;
 * without recovery it knows neither.
 */
class NodeManagerRecoveryTest {

  private static final ApplicationId APP = ApplicationId.newInstance(1795000000000L, 9);
  private static final String SECRET = "app-secret";
  private static final byte[] BLOCK = "r0".getBytes(StandardCharsets.UTF_8);
  private static final TransportConf TRANSPORT =
      new TransportConf("shuffle", MapConfigProvider.EMPTY);

  @TempDir Path dir;
  private CoflowShuffleService running;

  @AfterEach
  void stop() {
    if (running != null) {
      running.stop();
    }
  }

  /** A service as a NodeManager starts it; {@code recovery} null: recovery off. */
  private CoflowShuffleService start(Path recovery, String backend) throws Exception {
    Configuration c = new Configuration(false);
    c.setInt(ShuffleServiceConf.SPARK_PORT.name(), 0);
    c.setInt(ShuffleServiceConf.PACED_PORT.name(), 0);
    c.setBoolean(ShuffleServiceConf.STOP_ON_FAILURE.name(), true);
    c.setBoolean(ShuffleServiceConf.AUTHENTICATE.name(), true);
    c.set(ShuffleServiceConf.DB_BACKEND.name(), backend);
    CoflowShuffleService s = new CoflowShuffleService();
    if (recovery != null) {
      Files.createDirectories(recovery);
      s.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.toUri()));
    }
    s.init(c);
    s.start();
    running = s;
    return s;
  }

  /** The application starts on the node: YARN hands its secret, an executor registers. */
  private void applicationRuns(CoflowShuffleService s) throws Exception {
    s.initializeApplication(
        new ApplicationInitializationContext(
            "user", APP, ByteBuffer.wrap(SECRET.getBytes(StandardCharsets.UTF_8))));
    ExecutorShuffleInfo exec = ShuffleFiles.executor(dir.resolve("exec"));
    ShuffleFiles.write(exec, 0, 5, new byte[][] {BLOCK});
    try (ExternalBlockStoreClient spark =
        new ExternalBlockStoreClient(TRANSPORT, AppSecrets.of(SECRET), true, 10_000)) {
      spark.init(APP.toString());
      spark.registerWithShuffleServer("127.0.0.1", s.servers().sparkPort(), "1", exec);
    }
  }

  private static byte[] fetch(CoflowShuffleService s) throws Exception {
    return PacedFetches.fetch(
        TRANSPORT,
        APP.toString(),
        AppSecrets.of(SECRET),
        s.servers().pacedPort(),
        BlockSource.qualified(APP.toString(), "1", "shuffle_0_5_0"),
        Pacer.UNLIMITED);
  }

  /** The NodeManager goes down: its service stops, the database keeps what was written. */
  private void restart() {
    running.stop();
    running = null;
  }

  @ParameterizedTest
  @ValueSource(strings = {"ROCKSDB", "LEVELDB"})
  void aRestartedNodeServesWhatItServedBefore(String backend) throws Exception {
    Path recovery = dir.resolve("recovery");
    CoflowShuffleService before = start(recovery, backend);
    applicationRuns(before);
    assertArrayEquals(BLOCK, fetch(before));
    restart();
    CoflowShuffleService after = start(recovery, backend);
    assertArrayEquals(BLOCK, fetch(after), "registration and secret recovered");
    after.stopApplication(new ApplicationTerminationContext(APP));
    restart();
    CoflowShuffleService again = start(recovery, backend);
    assertThrows(Exception.class, () -> fetch(again), "a stopped application is not recovered");
  }

  @Test
  void withoutRecoveryARestartedNodeKnowsNeither() throws Exception {
    CoflowShuffleService before = start(null, "ROCKSDB");
    applicationRuns(before);
    restart();
    CoflowShuffleService after = start(null, "ROCKSDB");
    Exception e = assertThrows(Exception.class, () -> fetch(after));
    assertTrue(e.getMessage() != null, e.toString());
  }
}
