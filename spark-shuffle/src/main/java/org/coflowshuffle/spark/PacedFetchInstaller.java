package org.coflowshuffle.spark;

import java.lang.reflect.Field;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.storage.BlockManager;
import org.coflowshuffle.ratelimit.PacedBlockServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts one executor on the paced transport: starts its {@link PacedBlockServer} over the shuffle
 * files it writes, tells the driver where it listens, and makes its block manager fetch remote
 * shuffle blocks through a {@link PacedShuffleClient}.
 *
 * <p>Spark has no setting for the block client an executor uses: {@code BlockManager} keeps it in a
 * final field set at start-up, read by every shuffle fetch. It is swapped once, by reflection,
 * before any task runs; with the external shuffle service on, it is left alone (blocks are then
 * served by that service, not by executors).
 */
final class PacedFetchInstaller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PacedFetchInstaller.class);

  private final PacedBlockServer server;
  private final PacedShuffleClient client;

  private PacedFetchInstaller(PacedBlockServer server, PacedShuffleClient client) {
    this.server = server;
    this.client = client;
  }

  /** Installs the paced transport; null (and one log line) when this executor cannot have it. */
  static PacedFetchInstaller install(PluginContext ctx) {
    if (ctx.conf().getBoolean("spark.shuffle.service.enabled", false)) {
      LOG.warn("coflow: shuffle fetches are not paced: the external shuffle service serves them");
      return null;
    }
    PacedBlockServer server = new PacedBlockServer(new ShuffleBlockSource(), 2);
    try {
      BlockManager bm = SparkEnv.get().blockManager();
      // The host Spark's own fetches reach this executor at (an executor's RPC environment has no
      // address of its own, so the plugin context cannot tell).
      String host = bm.blockManagerId().host();
      int port = server.start(host, 0);
      Field field = BlockManager.class.getDeclaredField("blockStoreClient");
      field.setAccessible(true);
      BlockStoreClient spark = (BlockStoreClient) field.get(bm);
      PacedShuffleClient client = new PacedShuffleClient(spark);
      field.set(bm, client);
      if (!DriverLink.register(new Messages.PacedEndpoint(ctx.executorID(), host, port))) {
        LOG.warn(
            "coflow: this executor's blocks are fetched unpaced: the driver did not register it");
      }
      LOG.info("coflow: paced block server on {}:{}", host, port);
      return new PacedFetchInstaller(server, client);
    } catch (Exception | LinkageError e) {
      server.close();
      LOG.warn("coflow: shuffle fetches are not paced: {}", e.toString());
      return null;
    }
  }

  @Override
  public void close() {
    LOG.info(
        "coflow: {} bytes of shuffle blocks fetched paced", PacedShuffleClient.pacedBytes.get());
    client.stop();
    server.close();
  }
}
