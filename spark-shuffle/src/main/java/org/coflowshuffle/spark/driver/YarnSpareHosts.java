/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.spark.SparkConf;
import org.coflowshuffle.spark.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The YARN side of {@link GrowingCluster}: the running NodeManagers whose unused memory holds one
 * more executor container of this application, as the ResourceManager reports them. A daemon thread
 * asks every few seconds, so that placing a stage never waits on the ResourceManager; when it
 * cannot be reached, the list is empty (reducers are placed over running executors only) and the
 * log says why once.
 *
 * <p>The container is sized as Spark's YARN allocator sizes it: {@code spark.executor.memory} plus
 * its overhead ({@code spark.executor.memoryOverhead}, else the larger of 384 MiB and {@code
 * spark.executor.memoryOverheadFactor} of the memory), rounded up to {@code
 * yarn.scheduler.minimum-allocation-mb}. Only memory counts, as with YARN's default resource
 * calculator.
 */
final class YarnSpareHosts implements Supplier<List<String>>, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(YarnSpareHosts.class);
  static final long REFRESH_SECONDS = 5;

  private final long containerMb;
  private final YarnClient client;
  private final ScheduledExecutorService refresh =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coflow-yarn-nodes"));
  private volatile List<String> hosts = List.of();
  private volatile boolean warned;

  private YarnSpareHosts(long containerMb, YarnClient client) {
    this.containerMb = containerMb;
    this.client = client;
  }

  /** Starts asking the ResourceManager that {@code hadoopConf} names. */
  static YarnSpareHosts start(SparkConf spark, Configuration hadoopConf) {
    YarnConfiguration yarn = new YarnConfiguration(hadoopConf);
    // A ResourceManager that is down must not hold the refresh thread for YARN's default 15 min.
    yarn.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 10_000);
    yarn.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 1_000);
    YarnClient client = YarnClient.createYarnClient();
    client.init(yarn);
    client.start();
    YarnSpareHosts s =
        new YarnSpareHosts(
            containerMb(
                spark,
                yarn.getLong(
                    YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
                    YarnConfiguration.DEFAULT_RM_SCHEDULER_MINIMUM_ALLOCATION_MB)),
            client);
    s.refresh.scheduleWithFixedDelay(s::ask, 0, REFRESH_SECONDS, TimeUnit.SECONDS);
    return s;
  }

  /** Memory of one executor's container, as YARN grants it. */
  static long containerMb(SparkConf spark, long minimumAllocationMb) {
    long memory = spark.getSizeAsMb("spark.executor.memory", "1g");
    long overhead =
        spark.contains("spark.executor.memoryOverhead")
            ? spark.getSizeAsMb("spark.executor.memoryOverhead", "0")
            : Math.max(
                384, (long) (spark.getDouble("spark.executor.memoryOverheadFactor", 0.1) * memory));
    long unit = Math.max(1, minimumAllocationMb);
    return (memory + overhead + unit - 1) / unit * unit;
  }

  /** The hosts of running nodes with room for {@code containerMb} more. */
  static List<String> withRoom(List<NodeReport> nodes, long containerMb) {
    List<String> spare = new ArrayList<>();
    for (NodeReport n : nodes) {
      Resource all = n.getCapability();
      Resource used = n.getUsed();
      long free = all.getMemorySize() - (used == null ? 0 : used.getMemorySize());
      if (n.getNodeState() == NodeState.RUNNING && free >= containerMb) {
        spare.add(n.getNodeId().getHost());
      }
    }
    return List.copyOf(spare);
  }

  private void ask() {
    try {
      hosts = withRoom(client.getNodeReports(NodeState.RUNNING), containerMb);
      warned = false;
    } catch (Exception | LinkageError e) {
      hosts = List.of();
      if (!warned) {
        warned = true;
        LOG.warn(
            "coflow: cannot list YARN's nodes ({}): reducers are placed over running executors only",
            e.toString());
      }
    }
  }

  @Override
  public List<String> get() {
    return hosts;
  }

  @Override
  public void close() {
    refresh.shutdownNow();
    client.stop();
  }
}
