/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.List;
import java.util.Map;

/**
 * What an application's driver tells its coordinator and asks it, whether the coordinator is
 * embedded ({@link LiveCoordinator}) or a standalone service reached over the network ({@code
 * coordinator.client.RemoteCoordinator}). Shuffles are named by the application's own ids.
 *
 * <p>Implementations are thread-safe: events come from Spark's listener bus and RPC threads,
 * placements are asked on its scheduler thread. No method throws for a coordinator that is gone:
 * placements are then {@link PlacementUnavailable} and rates unlimited, so Spark runs as without
 * the plugin.
 */
public interface ShuffleCoordinator {

  /**
   * How long the application keeps a task waiting for the executor it was placed on while that
   * executor's cores are taken (Spark's {@code spark.locality.wait.process}), seconds: a new stage
   * may then be placed on cores whose tasks end within it. 0 until told.
   *
   * @throws IllegalArgumentException for a negative or non-finite wait
   */
  void slotWait(double seconds);

  /** An executor joined (or changed); it may now host reducers. */
  void executorAdded(ExecutorSlots executor);

  /** An executor left; it hosts no new reducers. */
  void executorRemoved(String executorId);

  /**
   * One map task's exact bytes per reducer; a retried task's report replaces the earlier one. With
   * {@code bytesPerReducer} null, the map output is on that executor but its sizes are not known (a
   * shuffle that starts before they are measured): its flows are then sampled to learn them, and
   * each is over only when {@link #fetched} or {@link #reducerDone} says so.
   */
  void mapOutput(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer);

  /**
   * Where the reducers of a shuffle run.
   *
   * @throws PlacementUnavailable with a one-line reason
   */
  ShufflePlacement place(int shuffleId, int numMaps, int numReducers) throws PlacementUnavailable;

  /**
   * Where the reducers of a stage reading several co-partitioned shuffles run, one task per
   * reducer: one coflow.
   *
   * @throws PlacementUnavailable with a one-line reason
   */
  default ShufflePlacement placeTogether(int[] shuffleIds, int[] numMaps, int numReducers)
      throws PlacementUnavailable {
    return placeTogether(shuffleIds, numMaps, ReduceTaskRanges.oneEach(numReducers));
  }

  /**
   * Where the tasks of a stage reading several co-partitioned shuffles run, each task reading the
   * reducers {@code tasks} gives it (adaptive execution coalesces small reduce partitions): one
   * coflow, placed task by task.
   *
   * @throws PlacementUnavailable with a one-line reason
   */
  default ShufflePlacement placeTogether(int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks)
      throws PlacementUnavailable {
    return placeTogether(shuffleIds, numMaps, tasks, 1);
  }

  /**
   * Like {@link #placeTogether(int[], int[], ReduceTaskRanges)}, for a coflow of the given weight
   * against other coflows (the weight of the Spark scheduler pool of the job reading it), which the
   * schemes that weigh coflows honour ({@code rpc}, {@code rpc-faithful}, {@code wss-priority});
   * the placement of a stage already placed does not change.
   *
   * @throws PlacementUnavailable with a one-line reason
   */
  ShufflePlacement placeTogether(
      int[] shuffleIds, int[] numMaps, ReduceTaskRanges tasks, double weight)
      throws PlacementUnavailable;

  /** Every reducer of the shuffle has its input: its coflow is complete. */
  void fetchFinished(int shuffleId);

  /**
   * A reduce task of a stage reading the shuffle ended: called for each reducer the task read (a
   * task of coalesced partitions reads several).
   */
  void reducerDone(int shuffleId, int reducer);

  /** A reducer received {@code bytes} of a shuffle from one executor. */
  void delivered(int shuffleId, int reducer, String source, long bytes);

  /**
   * A reducer has received everything it fetches of a shuffle from one executor: how a flow of
   * unknown size ends (one of known size ends with its last byte).
   */
  void fetched(int shuffleId, int reducer, String source);

  /**
   * Bytes per second at which a reducer running on {@code fetcher} should fetch what {@code source}
   * holds for it; {@link Double#POSITIVE_INFINITY} for no limit.
   */
  double rate(int shuffleId, int reducer, String source, String fetcher);

  /** The shuffle is gone: drop everything about it. */
  void forget(int shuffleId);

  /**
   * How many shuffles this coordinator keeps something of (map output, a placement, a stage still
   * fetching): what an application that runs job after job must see go back down as Spark drops its
   * shuffles.
   */
  int shufflesHeld();

  /** Lines for the driver's log: what is fetching, or the coordinator's state. */
  List<String> status();

  /**
   * The largest share of one host's link, in or out, that the rates of any decision so far planned,
   * and where, e.g. {@code 99.8% (h3 in)}; empty where the decisions are made elsewhere.
   */
  default String linkUse() {
    return "";
  }

  /**
   * Seconds since the reducers of the stage reading the shuffle had every byte they fetch over the
   * network: the coflow's end as the RPC paper counts it, before they sort and write (a stage's end
   * adds that work). NaN while bytes are missing, when none crossed the network, for a stage no
   * longer fetching, or where the decisions are made elsewhere. Asked before {@link
   * #fetchFinished}.
   */
  default double sinceFetched(int shuffleId) {
    return Double.NaN;
  }

  /**
   * The speed of the network interface an executor's address is on, bytes per second (0 when not
   * known): an upper bound for a link that is measured. Ignored where links are not measured here.
   */
  default void nicSpeed(String executorId, double bytesPerSecond) {}

  /**
   * What the network interface an executor's address is on has carried since it came up, bytes
   * received and sent, as the executor read its counters at {@code seconds} of its machine's clock.
   * Ignored where links are not measured here.
   */
  default void interfaceBytes(String executorId, double seconds, long received, long sent) {}

  /**
   * Per machine whose link is measured, the bandwidth it leaves for shuffles each way (in, out),
   * bytes per second, then (where known) the link's each way, other traffic included; empty where
   * links are configured or measured elsewhere.
   */
  default Map<String, double[]> linkEstimates() {
    return Map.of();
  }

  /**
   * Per placed stage still fetching (by the shuffles it reads), per machine: the rate planned in
   * (at 0) and out (at 1), bytes per second, and the bytes delivered in (at 2) and out (at 3) so
   * far; empty where the decisions are made elsewhere.
   */
  default Map<List<Integer>, Map<String, double[]>> hostTraffic() {
    return Map.of();
  }
}
