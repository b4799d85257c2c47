/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;

/**
 * With dynamic allocation, the executors that exist when a stage is placed are not all the cluster
 * can give: the cluster manager can still start executors on machines that have room. This
 * coordinator offers the scheme, besides the running executors, one executor to come on each
 * machine with room and none of this application's executors, up to {@code
 * spark.dynamicAllocation.maxExecutors} and to as many as the stage's tasks could fill. A reducer
 * placed on one is preferred on that <em>host</em> ({@link #location}); Spark's {@code
 * ExecutorAllocationManager} passes the hosts of pending tasks to the cluster manager with its
 * request for executors, so on YARN the containers are asked for on the machines the scheme chose.
 *
 * <p>An executor to come is {@code new@<host>}: it stands in the model until an executor of this
 * application registers on its host, then leaves (the reducers placed there run on the real one,
 * and the coordinator follows each reducer to where it runs). Everything else passes through.
 */
public final class GrowingCluster implements ShuffleCoordinator, AutoCloseable {

  static final String PREFIX = "new@";

  private final ShuffleCoordinator coordinator;
  private final Supplier<? extends Collection<String>> spareHosts;
  private final ToDoubleFunction<String> link;
  private final int cores;
  private final int maxExecutors;

  /** This application's executors: id to host. */
  private final Map<String, String> live = new ConcurrentHashMap<>();

  /** Hosts whose executor to come the coordinator has now. */
  private final Set<String> offered = new HashSet<>();

  /**
   * @param spareHosts machines with room for one more executor, as the cluster manager last said
   * @param link a machine's link, bytes per second: the best are offered first
   * @param cores tasks an executor runs at once ({@code spark.executor.cores})
   * @param maxExecutors the most executors dynamic allocation may have at once
   */
  GrowingCluster(
      ShuffleCoordinator coordinator,
      Supplier<? extends Collection<String>> spareHosts,
      ToDoubleFunction<String> link,
      int cores,
      int maxExecutors) {
    this.coordinator = coordinator;
    this.spareHosts = spareHosts;
    this.link = link;
    this.cores = Math.max(1, cores);
    this.maxExecutors = maxExecutors;
  }

  /**
   * Where Spark should run a task placed on {@code e}: the executor, or the host of one to come.
   */
  static String location(ExecutorSlots e) {
    return e.executorId().startsWith(PREFIX)
        ? e.host()
        : "executor_" + e.host() + "_" + e.executorId();
  }

  /**
   * Whether a task that ran on {@code executorId} at {@code host} ran where it was placed: on the
   * machine of the executor chosen (any of its executors, {@link MachineExecutors}), or on the
   * executor chosen where each executor stands for a machine of its own.
   */
  public static boolean ranWherePlaced(ExecutorSlots placed, String executorId, String host) {
    return placed.executorId().startsWith(PREFIX) || placed.machine().equals(placed.host())
        ? placed.host().equals(host)
        : placed.executorId().equals(executorId);
  }

  /**
   * Brings the executors to come up to date with the cluster before a placement of {@code tasks}
   * tasks. One offered earlier stays while its host still has room (tasks of an earlier stage may
   * be waiting for it); new ones are added, best-linked machines first, up to what the stage's
   * tasks could fill and what dynamic allocation allows.
   */
  private synchronized void offerSpareHosts(int tasks) {
    Set<String> spare = new LinkedHashSet<>(spareHosts.get());
    spare.removeAll(live.values());
    for (String host : List.copyOf(offered)) {
      if (!spare.contains(host)) {
        withdraw(host); // its room was given to someone else
      }
    }
    long room =
        Math.min((long) maxExecutors - live.size(), (tasks + cores - 1) / cores) - offered.size();
    List<String> best = new ArrayList<>(spare);
    best.removeAll(offered);
    best.sort(Comparator.comparingDouble(link).reversed());
    for (String host : best) {
      if (room-- <= 0) {
        break;
      }
      offered.add(host);
      coordinator.executorAdded(new ExecutorSlots(PREFIX + host, host, cores));
    }
  }

  /** The hosts whose executor to come the coordinator has now. */
  synchronized Set<String> offered() {
    return Set.copyOf(offered);
  }

  private void withdraw(String host) {
    if (offered.remove(host)) {
      coordinator.executorRemoved(PREFIX + host);
    }
  }

  @Override
  public void slotWait(double seconds) {
    coordinator.slotWait(seconds);
  }

  @Override
  public void executorAdded(ExecutorSlots executor) {
    live.put(executor.executorId(), executor.host());
    synchronized (this) {
      withdraw(executor.host());
    }
    coordinator.executorAdded(executor);
  }

  @Override
  public void executorRemoved(String executorId) {
    live.remove(executorId);
    coordinator.executorRemoved(executorId);
  }

  @Override
  public ShufflePlacement place(int shuffleId, int numMaps, int numReducers)
      throws PlacementUnavailable {
    offerSpareHosts(numReducers);
    return coordinator.place(shuffleId, numMaps, numReducers);
  }

  @Override
  public ShufflePlacement placeTogether(
      int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks, double weight)
      throws PlacementUnavailable {
    offerSpareHosts(tasks.tasks());
    return coordinator.placeTogether(shuffleIds, numMaps, tasks, weight);
  }

  @Override
  public void mapOutput(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer) {
    coordinator.mapOutput(shuffleId, mapIndex, executorId, bytesPerReducer);
  }

  @Override
  public void fetchFinished(int shuffleId) {
    coordinator.fetchFinished(shuffleId);
  }

  @Override
  public void reducerDone(int shuffleId, int reducer) {
    coordinator.reducerDone(shuffleId, reducer);
  }

  @Override
  public void delivered(int shuffleId, int reducer, String source, long bytes) {
    coordinator.delivered(shuffleId, reducer, source, bytes);
  }

  @Override
  public void fetched(int shuffleId, int reducer, String source) {
    coordinator.fetched(shuffleId, reducer, source);
  }

  @Override
  public double rate(int shuffleId, int reducer, String source, String fetcher) {
    return coordinator.rate(shuffleId, reducer, source, fetcher);
  }

  @Override
  public void forget(int shuffleId) {
    coordinator.forget(shuffleId);
  }

  @Override
  public int shufflesHeld() {
    return coordinator.shufflesHeld();
  }

  @Override
  public List<String> status() {
    return coordinator.status();
  }

  @Override
  public String linkUse() {
    return coordinator.linkUse();
  }

  @Override
  public double sinceFetched(int shuffleId) {
    return coordinator.sinceFetched(shuffleId);
  }

  @Override
  public void nicSpeed(String executorId, double bytesPerSecond) {
    coordinator.nicSpeed(executorId, bytesPerSecond);
  }

  @Override
  public void interfaceBytes(String executorId, double seconds, long received, long sent) {
    coordinator.interfaceBytes(executorId, seconds, received, sent);
  }

  @Override
  public Map<String, double[]> linkEstimates() {
    return coordinator.linkEstimates();
  }

  /** Closes the coordinator and the source of spare hosts, those that hold resources. */
  @Override
  public void close() throws Exception {
    try {
      if (spareHosts instanceof AutoCloseable c) {
        c.close();
      }
    } finally {
      if (coordinator instanceof AutoCloseable c) {
        c.close();
      }
    }
  }
}
