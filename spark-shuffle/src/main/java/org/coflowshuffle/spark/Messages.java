/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import java.io.Serializable;

/**
 * What executors tell and ask the driver plugin, through Spark's plugin RPC (Java-serialized, on
 * Spark's authenticated, optionally encrypted RPC channel).
 *
 * <p>Replies are JDK types only ({@code Boolean}, {@code double[]}, {@code String}): an executor
 * deserializes a reply on Spark's RPC thread with Spark's class loader, which cannot see classes
 * that came with {@code --jars}, and a reply it cannot read makes it drop the driver and exit.
 */
public final class Messages {

  private Messages() {}

  /**
   * What one map task wrote. Reply: {@code true}.
   *
   * @param bytesPerReducer exact bytes written for each reduce partition
   */
  public record MapOutput(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer)
      implements Serializable {}

  /** An executor's paced block server listens at {@code host:port}. Reply: {@code true}. */
  public record PacedEndpoint(String executorId, String host, int port) implements Serializable {}

  /**
   * Where the driver sends an executor its orders: a {@link FetchOrder}'s {@linkplain
   * FetchOrder#wire wire form}, a reducer placed on it to fetch before its task starts; {@code
   * int[] {shuffleId, reducer}}, drop that fetch, the reducer's task started elsewhere; {@code
   * int[0]}, ask the rates of its flows now. Reply: {@code true}.
   */
  public record OrdersEndpoint(String executorId, org.apache.spark.rpc.RpcEndpointRef orders)
      implements Serializable {}

  /**
   * An order to fetch reducer {@code reducer}'s blocks of a shuffle ahead of its task, with what
   * the executor would otherwise ask the driver for, one round trip each, before its first byte:
   * the map output locations (the driver's own, as the task will read them) and each source's paced
   * block server. Per source i: executor {@code execIds[i]} with Spark's block manager at {@code
   * hosts[i]:ports[i]}, its paced server at {@code paced[i]} ("host:port", "" if unknown), and
   * blocks {@code blockIds[i]} of {@code sizes[i]} bytes.
   *
   * <p>Sent as {@link #wire}, an {@code Object[]} of JDK arrays: the executor's RPC thread
   * deserializes orders with Spark's class loader, which cannot see this class.
   */
  public record FetchOrder(
      int shuffleId,
      int reducer,
      String[] execIds,
      String[] hosts,
      int[] ports,
      String[] paced,
      String[][] blockIds,
      long[][] sizes) {

    public FetchOrder {
      int n = execIds.length;
      if (hosts.length != n
          || ports.length != n
          || paced.length != n
          || blockIds.length != n
          || sizes.length != n) {
        throw new IllegalArgumentException("a fetch order's sources differ in number");
      }
      for (int i = 0; i < n; i++) {
        if (blockIds[i].length != sizes[i].length) {
          throw new IllegalArgumentException("a fetch order's blocks and sizes differ in number");
        }
      }
    }

    /** The form it is sent in. */
    public Object[] wire() {
      return new Object[] {
        new int[] {shuffleId, reducer}, execIds, hosts, ports, paced, blockIds, sizes
      };
    }

    /**
     * The order sent as {@code wire}.
     *
     * @throws IllegalArgumentException when it is not a fetch order's wire form
     */
    public static FetchOrder of(Object[] wire) {
      if (wire.length == 7
          && wire[0] instanceof int[] ids
          && ids.length == 2
          && wire[1] instanceof String[] execIds
          && wire[2] instanceof String[] hosts
          && wire[3] instanceof int[] ports
          && wire[4] instanceof String[] paced
          && wire[5] instanceof String[][] blockIds
          && wire[6] instanceof long[][] sizes) {
        return new FetchOrder(ids[0], ids[1], execIds, hosts, ports, paced, blockIds, sizes);
      }
      throw new IllegalArgumentException("not a fetch order");
    }
  }

  /** Where is the paced block server of an executor? Reply: {@code "host:port"}, or "" for none. */
  public record WhereIsPaced(String executorId) implements Serializable {}

  /**
   * How fast may each reducer fetch what a shuffle holds for it on one executor? Question i is
   * reducer {@code reducers[i]} of shuffle {@code shuffleIds[i]}, from {@code sources[i]}; all of
   * an executor's flows ask in one message. Reply: a {@code double[]}, bytes per second for each
   * ({@code Infinity} for no limit). Asking marks each reducer as fetching on {@code
   * fetchingExecutor}.
   *
   * @param delivered bytes question i's reducer received from its source since the executor's last
   *     ask: progress rides on the asks, so the coordinator sees what is left while flows run, not
   *     only when they end
   */
  public record RateQueries(
      int[] shuffleIds, int[] reducers, String[] sources, long[] delivered, String fetchingExecutor)
      implements Serializable {}

  /**
   * An executor's running total of shuffle bytes fetched through the paced transport, and of those
   * fetched before their reduce tasks started ({@code early}). Sent after a task when it changed,
   * no reply.
   */
  public record PacedTotal(String executorId, long bytes, long early) implements Serializable {}

  /**
   * The speed of the network interface an executor's address ({@code host}) is on, bytes per
   * second, 0 when not known. Sent once at start, no reply.
   */
  public record NicSpeed(String executorId, String host, double bytesPerSecond)
      implements Serializable {}

  /**
   * What the network interface an executor's address is on has carried since it came up, bytes
   * received and sent, as the kernel counted them at {@code millis} of the machine's clock. Sent
   * every second while links are measured, no reply.
   */
  public record InterfaceBytes(String executorId, long millis, long received, long sent)
      implements Serializable {}

  /**
   * A reducer's flow from an executor left the paced transport (its sender failed or could not be
   * reached): Spark's own client fetches the rest, so the coordinator no longer counts it among the
   * flows it paces. Sent, no reply.
   *
   * @param cause why, for metrics: {@code connect} (the sender could not be reached), {@code start}
   *     (the flow could not start: the executor is stopping, or a failure of ours) or {@code fetch}
   *     (a block failed on the way)
   * @param fetchingExecutor the executor whose flow it was (the driver counts only the one running
   *     the reducer's task)
   */
  public record Unpaced(
      int shuffleId, int reducer, String sourceExecutor, String cause, String fetchingExecutor)
      implements Serializable {}

  /**
   * A reducer received {@code bytes} from an executor (what no ask carried), on {@code
   * fetchingExecutor}. Sent, no reply.
   */
  public record Delivered(
      int shuffleId, int reducer, String sourceExecutor, long bytes, String fetchingExecutor)
      implements Serializable {}
}
