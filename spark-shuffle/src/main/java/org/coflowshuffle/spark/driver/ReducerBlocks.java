/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.coflowshuffle.spark.Messages;
import scala.Tuple2;
import scala.Tuple3;

/**
 * A reducer's fetch order as the driver knows it: its non-empty blocks by executor, from the
 * driver's map output tracker (the locations its task will ask the driver for), and each executor's
 * paced block server as the executor reported it. An executor given these starts its flows without
 * asking the driver for either, which on a busy machine took it most of a second at a shuffle's
 * start.
 */
final class ReducerBlocks implements ExecutorOrders.Blocks {

  private final Map<String, Messages.PacedEndpoint> paced;

  /**
   * @param paced the executors' paced block servers, by executor id, as they register them
   */
  ReducerBlocks(Map<String, Messages.PacedEndpoint> paced) {
    this.paced = paced;
  }

  @Override
  public Messages.FetchOrder order(int shuffleId, int reducer) {
    scala.collection.Iterator<
            Tuple2<BlockManagerId, scala.collection.Seq<Tuple3<BlockId, Object, Object>>>>
        all =
            SparkEnv.get()
                .mapOutputTracker()
                .getMapSizesByExecutorId(shuffleId, 0, Integer.MAX_VALUE, reducer, reducer + 1);
    List<BlockManagerId> from = new ArrayList<>();
    List<String[]> ids = new ArrayList<>();
    List<long[]> sizes = new ArrayList<>();
    while (all.hasNext()) {
      Tuple2<BlockManagerId, scala.collection.Seq<Tuple3<BlockId, Object, Object>>> next =
          all.next();
      List<String> blockIds = new ArrayList<>();
      List<Long> blockSizes = new ArrayList<>();
      scala.collection.Iterator<Tuple3<BlockId, Object, Object>> blocks = next._2().iterator();
      while (blocks.hasNext()) {
        Tuple3<BlockId, Object, Object> b = blocks.next();
        if ((Long) b._2() > 0) {
          blockIds.add(b._1().name());
          blockSizes.add((Long) b._2());
        }
      }
      if (!blockIds.isEmpty()) {
        from.add(next._1());
        ids.add(blockIds.toArray(new String[0]));
        sizes.add(blockSizes.stream().mapToLong(Long::longValue).toArray());
      }
    }
    int n = from.size();
    String[] execIds = new String[n];
    String[] hosts = new String[n];
    int[] ports = new int[n];
    String[] servers = new String[n];
    for (int i = 0; i < n; i++) {
      BlockManagerId b = from.get(i);
      execIds[i] = b.executorId();
      hosts[i] = b.host();
      ports[i] = b.port();
      Messages.PacedEndpoint e = paced.get(b.executorId());
      servers[i] = e == null ? "" : e.host() + ":" + e.port();
    }
    return new Messages.FetchOrder(
        shuffleId,
        reducer,
        execIds,
        hosts,
        ports,
        servers,
        ids.toArray(new String[0][]),
        sizes.toArray(new long[0][]));
  }
}
