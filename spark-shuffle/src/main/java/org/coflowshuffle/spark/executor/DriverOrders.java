/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.spark.SparkEnv;
import org.apache.spark.rpc.RpcEndpoint;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockManagerId;
import org.coflowshuffle.spark.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.PartialFunction;
import scala.PartialFunction$;
import scala.Tuple2;
import scala.Tuple3;
import scala.runtime.BoxedUnit;

/**
 * The driver's orders to this executor. {@code int[0]}: ask the rates of every flow now, not at the
 * next refresh (a flow ended, or a stage was placed: the bandwidth it leaves or needs changes hands
 * at once). {@code int[] {shuffleId, reducer}}: start a reducer's fetches as soon as the
 * coordinator places it on this executor, rather than when its task starts; the driver sends it as
 * the reduce stage is submitted, and the task, which may wait for a core and then for its map
 * output locations and broadcasts, finds its blocks fetched or on their way ({@link
 * PrefetchedBlocks}). The blocks are the ones the task's fetch would ask for (remote, not empty;
 * Spark's own map output locations), fetched on the same paced flows at the coordinator's rates.
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
            try {
              worker.execute(() -> prefetch(order[0], order[1]));
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

  /** Fetches what reducer {@code reducer} of a shuffle will read from other executors. */
  private void prefetch(int shuffleId, int reducer) {
    try {
      List<PrefetchedBlocks.Source> sources = sources(shuffleId, reducer);
      if (!sources.isEmpty() && !client.prefetch(shuffleId, reducer, sources)) {
        LOG.debug("coflow: reducer {} of shuffle {} not fetched early", reducer, shuffleId);
      }
    } catch (RuntimeException e) { // map outputs lost, the executor stopping: the task fetches
      LOG.debug("coflow: reducer {} of shuffle {} not fetched early", reducer, shuffleId, e);
    }
  }

  /**
   * The reducer's blocks a task on this executor fetches from others, by source, as Spark's fetch
   * sorts them: blocks of this executor are local, and, with host-local reads, those of another
   * executor on its host are read from disk; empty blocks are skipped.
   */
  private static List<PrefetchedBlocks.Source> sources(int shuffleId, int reducer) {
    SparkEnv env = SparkEnv.get();
    BlockManager bm = env.blockManager();
    BlockManagerId self = bm.blockManagerId();
    boolean hostLocal = bm.hostLocalDirManager() != null && bm.hostLocalDirManager().isDefined();
    scala.collection.Iterator<
            Tuple2<BlockManagerId, scala.collection.Seq<Tuple3<BlockId, Object, Object>>>>
        all =
            env.mapOutputTracker()
                .getMapSizesByExecutorId(shuffleId, 0, Integer.MAX_VALUE, reducer, reducer + 1);
    Map<BlockManagerId, List<Tuple3<BlockId, Object, Object>>> remote = new LinkedHashMap<>();
    while (all.hasNext()) {
      Tuple2<BlockManagerId, scala.collection.Seq<Tuple3<BlockId, Object, Object>>> next =
          all.next();
      BlockManagerId from = next._1();
      if (from.executorId().equals(self.executorId())
          || hostLocal && from.host().equals(self.host())) {
        continue;
      }
      scala.collection.Iterator<Tuple3<BlockId, Object, Object>> blocks = next._2().iterator();
      while (blocks.hasNext()) {
        Tuple3<BlockId, Object, Object> b = blocks.next();
        if ((Long) b._2() > 0) {
          remote.computeIfAbsent(from, k -> new ArrayList<>()).add(b);
        }
      }
    }
    List<PrefetchedBlocks.Source> sources = new ArrayList<>();
    remote.forEach(
        (from, blocks) -> {
          String[] ids = new String[blocks.size()];
          long[] sizes = new long[blocks.size()];
          for (int i = 0; i < ids.length; i++) {
            ids[i] = blocks.get(i)._1().name();
            sizes[i] = (Long) blocks.get(i)._2();
          }
          sources.add(
              new PrefetchedBlocks.Source(from.host(), from.port(), from.executorId(), ids, sizes));
        });
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
