/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.spark.SparkEnv;
import org.apache.spark.rpc.RpcEndpoint;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockManagerId;
import org.coflowshuffle.spark.DaemonThreads;
import org.coflowshuffle.spark.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.PartialFunction;
import scala.PartialFunction$;
import scala.runtime.BoxedUnit;

/**
 * The driver's orders to this executor. {@code int[0]}: ask the rates of every flow now, not at the
 * next refresh (a flow ended, or a stage was placed: the bandwidth it leaves or needs changes hands
 * at once). A {@link Messages.FetchOrder}: start a reducer's fetches as soon as the coordinator
 * places it on this executor, rather than when its task starts; the driver sends it as the reduce
 * stage is submitted, and the task, which may wait for a core and then for its map output locations
 * and broadcasts, finds its blocks fetched or on their way ({@link PrefetchedBlocks}). The blocks
 * are the ones the task's fetch would ask for (remote, not empty; Spark's own map output locations,
 * which come with the order), fetched on the same paced flows at the coordinator's rates. {@code
 * int[] {shuffleId, reducer}}: that reducer's task started on another executor, so what is fetched
 * ahead for it here is dropped.
 *
 * <p>It is an endpoint of Spark's RPC environment, the way the driver reaches an executor (the
 * plugin API only lets executors ask the driver), so orders ride Spark's authenticated, optionally
 * encrypted channel. Orders carry JDK types only: the RPC thread cannot load the plugin's classes.
 * A reducer that cannot be fetched early is left to its task: nothing here fails one.
 */
final class DriverOrders implements RpcEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(DriverOrders.class);

  /** The endpoint's name in the executor's RPC environment. */
  static final String NAME = "coflow-orders";

  private final RpcEnv rpcEnv;
  private final PacedShuffleClient client;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(DaemonThreads.named("coflow-fetch-ahead"));

  private DriverOrders(RpcEnv rpcEnv, PacedShuffleClient client) {
    this.rpcEnv = rpcEnv;
    this.client = client;
  }

  /** Sets up the endpoint in this executor's RPC environment; the driver sends to its reference. */
  static DriverOrders start(PacedShuffleClient client) {
    return new DriverOrders(SparkEnv.get().rpcEnv(), client);
  }

  /** Registers it; the reference the driver sends orders to. */
  RpcEndpointRef register() {
    return rpcEnv.setupEndpoint(NAME, this);
  }

  @Override
  public RpcEnv rpcEnv() {
    return rpcEnv;
  }

  @Override
  public PartialFunction<Object, BoxedUnit> receive() {
    scala.Function1<Object, BoxedUnit> handle =
        message -> {
          if (message instanceof int[] order && order.length == 0) {
            client.refreshNow();
          } else if (message instanceof int[] order && order.length == 2) {
            try { // after the order it drops, which the same thread runs
              worker.execute(() -> client.dropPrefetch(order[0], order[1]));
            } catch (RejectedExecutionException e) {
              // stopping
            }
          } else if (message instanceof Object[] wire) {
            try {
              Messages.FetchOrder order = Messages.FetchOrder.of(wire);
              worker.execute(() -> prefetch(order));
            } catch (IllegalArgumentException e) {
              LOG.warn("coflow: unknown order from the driver: {}", e.getMessage());
            } catch (RejectedExecutionException e) {
              // stopping
            }
          } else {
            LOG.warn("coflow: unknown order from the driver: {}", message);
          }
          return BoxedUnit.UNIT;
        };
    return PartialFunction$.MODULE$.fromFunction(handle);
  }

  /** Fetches what the order's reducer will read from other executors. */
  private void prefetch(Messages.FetchOrder order) {
    try {
      List<PrefetchedBlocks.Source> sources = remote(order);
      if (!sources.isEmpty() && !client.prefetch(order.shuffleId(), order.reducer(), sources)) {
        LOG.debug(
            "coflow: reducer {} of shuffle {} not fetched early",
            order.reducer(),
            order.shuffleId());
      }
    } catch (RuntimeException e) { // the executor stopping: the task fetches
      LOG.debug(
          "coflow: reducer {} of shuffle {} not fetched early",
          order.reducer(),
          order.shuffleId(),
          e);
    }
  }

  /**
   * The order's sources a task on this executor fetches from over the network, as Spark's fetch
   * sorts them: blocks of this executor are local, and, with host-local reads, those of another
   * executor on its host are read from disk. Takes note of their paced servers on the way.
   */
  private static List<PrefetchedBlocks.Source> remote(Messages.FetchOrder order) {
    BlockManager bm = SparkEnv.get().blockManager();
    BlockManagerId self = bm.blockManagerId();
    boolean hostLocal = bm.hostLocalDirManager() != null && bm.hostLocalDirManager().isDefined();
    List<PrefetchedBlocks.Source> sources = new ArrayList<>();
    for (int i = 0; i < order.execIds().length; i++) {
      String execId = order.execIds()[i];
      String host = order.hosts()[i];
      if (execId.equals(self.executorId()) || hostLocal && host.equals(self.host())) {
        continue;
      }
      DriverLink.pacedAt(execId, order.paced()[i]);
      sources.add(
          new PrefetchedBlocks.Source(
              host, order.ports()[i], execId, order.blockIds()[i], order.sizes()[i]));
    }
    return sources;
  }

  /** Stops taking orders; what was fetched early goes with the client. */
  void shutdown() {
    worker.shutdownNow();
    try {
      stop();
    } catch (RuntimeException e) {
      LOG.debug("coflow: prefetch endpoint not stopped", e);
    }
  }
}
