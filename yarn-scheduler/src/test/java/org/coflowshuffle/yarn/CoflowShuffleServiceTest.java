/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.spark.network.shuffle.ExternalBlockStoreClient;
import org.apache.spark.network.shuffle.NoOpMergedShuffleFileManager;
import org.apache.spark.network.shuffle.RemoteBlockPushResolver;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.shuffledb.DBBackend;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.config.ConfigDocs;
import org.coflowshuffle.ratelimit.BlockSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service as a NodeManager runs it, over real sockets: executors register through Spark's own
 * client and protocol, and their blocks come back through the paced transport.
 */
class CoflowShuffleServiceTest {

  @TempDir Path dir;
  private final CoflowShuffleService service = new CoflowShuffleService();

  @AfterEach
  void stop() {
    service.stop();
  }

  private static Configuration conf(int sparkPort, boolean stopOnFailure) {
    Configuration c = new Configuration(false);
    c.setInt(ShuffleServiceConf.SPARK_PORT.name(), sparkPort);
    c.setInt(ShuffleServiceConf.PACED_PORT.name(), 0);
    c.setBoolean(ShuffleServiceConf.STOP_ON_FAILURE.name(), stopOnFailure);
    return c;
  }

  private static byte[] fetch(int port, String name, double rate) throws Exception {
    return PacedFetches.fetch(
        new TransportConf("shuffle", MapConfigProvider.EMPTY), "app", null, port, name, rate);
  }

  @Test
  void pushedBlocksAreMergedWhereYarnSiteNamesSparksResolverAsForSparksOwnService()
      throws Exception {
    TransportConf transport = new TransportConf("shuffle", MapConfigProvider.EMPTY);
    assertTrue(
        ShuffleServers.mergeManager(
                "org.apache.spark.network.shuffle.RemoteBlockPushResolver", transport, null)
            instanceof RemoteBlockPushResolver);
    assertTrue(
        ShuffleServers.mergeManager("", transport, null) instanceof NoOpMergedShuffleFileManager,
        "Spark's default: pushes are refused and blocks read as written");
    assertTrue(
        ShuffleServers.mergeManager("com.example.Merger", transport, null)
            instanceof NoOpMergedShuffleFileManager);
  }

  @Test
  void servesWhatExecutorsRegisteredThroughSparksProtocolPacedUntilTheAppStops() throws Exception {
    service.init(conf(0, true));
    service.start();
    ShuffleServers servers = service.servers();
    assertNotNull(servers);
    assertEquals(servers.pacedPort(), service.getMetaData().getInt(0));

    ApplicationId app = ApplicationId.newInstance(1795000000000L, 4);
    ExecutorShuffleInfo exec = ShuffleFiles.executor(dir.resolve("exec"));
    byte[] block = new byte[200_000];
    for (int i = 0; i < block.length; i++) {
      block[i] = (byte) (i * 31);
    }
    ShuffleFiles.write(exec, 0, 5, new byte[][] {"r0".getBytes(StandardCharsets.UTF_8), block});
    try (ExternalBlockStoreClient spark =
        new ExternalBlockStoreClient(
            new TransportConf("shuffle", MapConfigProvider.EMPTY), null, false, 10_000)) {
      spark.init(app.toString());
      spark.registerWithShuffleServer("127.0.0.1", servers.sparkPort(), "1", exec);
    }

    String name = BlockSource.qualified(app.toString(), "1", "shuffle_0_5_1");
    long start = System.nanoTime();
    assertArrayEquals(block, fetch(servers.pacedPort(), name, 1_000_000));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds > 0.15, "200 KB at 1 MB/s is paced, took " + seconds + " s");

    service.stopApplication(new ApplicationTerminationContext(app));
    ExecutionException gone =
        assertThrows(ExecutionException.class, () -> fetch(servers.pacedPort(), name, 1e9));
    assertTrue(
        gone.getCause().getMessage().contains("not registered")
            || gone.getCause().getMessage().contains(app.toString()),
        gone.getCause().getMessage());
  }

  @Test
  void aPortInUseLeavesTheNodeManagerRunningUnlessToldToStop() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      service.init(conf(taken.getLocalPort(), false));
      service.start();
      assertNull(service.servers(), "not serving");
      assertEquals(-1, service.getMetaData().getInt(0));

      CoflowShuffleService strict = new CoflowShuffleService();
      RuntimeException e =
          assertThrows(RuntimeException.class, () -> strict.init(conf(taken.getLocalPort(), true)));
      assertTrue(e.toString().toLowerCase().contains("address"), e.toString());
    }
  }

  @Test
  void badSettingsAreNamed() {
    Configuration c = conf(0, true);
    c.set(ShuffleServiceConf.PACED_PORT.name(), "seven");
    RuntimeException e = assertThrows(RuntimeException.class, () -> service.init(c));
    assertTrue(e.getMessage().contains("coflow.shuffle.service.port=seven"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new ShuffleServiceConf(7337, 70_000, 2, false, false, DBBackend.ROCKSDB));
    Configuration db = conf(0, true);
    db.set(ShuffleServiceConf.DB_BACKEND.name(), "sqlite");
    e = assertThrows(RuntimeException.class, () -> new CoflowShuffleService().init(db));
    assertTrue(e.getMessage().contains("spark.shuffle.service.db.backend=sqlite"), e.getMessage());
  }

  /**
   * docs/configuration.md holds what {@link ConfigDocs} renders from the keys; run with {@code
   * -Dcoflow.docs.update=true} to rewrite it after changing a key.
   */
  @Test
  void theReferenceMatchesTheKeys() throws Exception {
    Path file = Path.of("..", "docs", "configuration.md");
    String section =
        ConfigDocs.section(
            "YARN NodeManager service (`yarn-site.xml`)",
            "Read by `CoflowShuffleService` from the NodeManager's configuration (see"
                + " docs/yarn.md); Spark's `spark.shuffle.io.*` transport settings apply to its"
                + " Spark-protocol port as they do to Spark's own service.",
            ShuffleServiceConf.KEYS);
    assertEquals(
        section, ConfigDocs.current(file, "yarn", section), "docs/configuration.md drifted");
  }
}
