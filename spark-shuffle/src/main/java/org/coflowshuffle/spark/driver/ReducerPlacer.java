/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntToDoubleFunction;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.Partition;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.scheduler.TaskLocation$;
import org.apache.spark.storage.StorageLevel;
import org.coflowshuffle.coordinator.live.PlacementUnavailable;
import org.coflowshuffle.coordinator.live.PlacementUnavailable.Cause;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.internal.CoalescedReads;
import org.coflowshuffle.spark.internal.PreferredLocationsHook;
import org.coflowshuffle.spark.internal.StageReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Answers the DAG scheduler's questions through {@link PreferredLocationsHook}: when a stage is
 * submitted it places the stage's coflow (every shuffle it reads); then, asked where reduce
 * partition r of a shuffle should run, it gives the chosen executor and the others of its machine
 * as {@code executor_<host>_<id>}, which Spark treats as process-local ({@link MachineExecutors});
 * a task placed on an executor still to come ({@link GrowingCluster}) prefers its host. A task that
 * reads several reducers (adaptive execution coalesced them) is placed as one: its reducers all
 * answer with its executor. A stage's coflow weighs what its job's scheduler pool does ({@link
 * PoolWeights}).
 *
 * <p>With {@code steers} false ({@code spark.coflow.placement.enabled=false}) it makes the same
 * placements, so that the coordinator knows each stage's coflow and sets its flows' rates, but
 * answers Spark's own locations: Spark places the reducers, and the coordinator paces them where
 * they run (from their tasks' rate questions), as Varys would.
 *
 * <p>It runs inside Spark's scheduler thread, so it never throws: when the coordinator cannot place
 * a shuffle it answers null, which keeps Spark's answer, and logs why once per shuffle, unless the
 * question came before the shuffle's map stage ended (a {@code coalesce} plans its partitions from
 * their locations before its parent stage runs): Spark asks again then.
 */
final class ReducerPlacer {

  private static final Logger LOG = LoggerFactory.getLogger(ReducerPlacer.class);

  /** Placements kept for inspection after Spark dropped their shuffle. */
  private static final int HISTORY = 4096;

  private final ShuffleCoordinator coordinator;
  private final IntToDoubleFunction jobWeight;
  private final Consumer<String> keptSpark;
  private final LongConsumer decided;
  private final MachineExecutors machines;
  private final ExecutorOrders orders;
  private final boolean steers;

  /** The shuffles (each set a stage reads) whose fallback was logged already. */
  private final Set<List<Integer>> logged = ConcurrentHashMap.newKeySet();

  /** Shuffles read by a stage that Spark places itself (see {@link CoalescedReads}). */
  private final Set<Integer> sparks = ConcurrentHashMap.newKeySet();

  private final Map<Integer, ShufflePlacement> recent =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, ShufflePlacement> eldest) {
          return size() > HISTORY;
        }
      };

  /**
   * @param jobWeight the weight of a job's coflows, by job id
   * @param keptSpark told once for each shuffle (or set of them) that keeps Spark's placement, with
   *     the cause ({@link #cause})
   * @param decided told how long the coordinator took to make each placement, nanoseconds
   * @param orders told each placement of a stage, to have its reducers fetched before their tasks
   * @param steers whether reduce tasks go where placed; if not, Spark places them (see the class)
   */
  ReducerPlacer(
      ShuffleCoordinator coordinator,
      IntToDoubleFunction jobWeight,
      Consumer<String> keptSpark,
      LongConsumer decided,
      MachineExecutors machines,
      ExecutorOrders orders,
      boolean steers) {
    this.coordinator = coordinator;
    this.machines = machines;
    this.orders = orders;
    this.steers = steers;
    this.jobWeight = jobWeight;
    this.keptSpark = keptSpark;
    this.decided = decided;
  }

  /** Whether reduce tasks go where placed (else Spark places them, and only rates are set). */
  boolean steers() {
    return steers;
  }

  /** The placement made for a shuffle, also after Spark dropped it (the last 4096 are kept). */
  Optional<ShufflePlacement> recent(int shuffleId) {
    synchronized (recent) {
      return Optional.ofNullable(recent.get(shuffleId));
    }
  }

  /**
   * For {@code getPreferredLocations} of {@code ShuffledRDD} and SQL's {@code ShuffledRowRDD}:
   * where a partition runs, a Scala {@code Seq}, or null for Spark's own answer. A partition that
   * reads a run of reducers (adaptive execution coalesced them) prefers where each of them does, in
   * order, as Spark's own answer does.
   */
  BiFunction<Object, Object, Object> rddHook() {
    return (rdd, partition) -> {
      ShuffleDependency<?, ?, ?> dep = StageReads.shuffleRead(rdd);
      int[] run = dep == null ? null : StageReads.reducers(rdd, (Partition) partition);
      return run == null ? null : locations(dep, run[0], run[1]);
    };
  }

  /**
   * For {@code DAGScheduler.getPreferredLocsInternal}: where a cogroup's partition runs (RDD joins,
   * whose partitions ask nobody), a Scala {@code Seq} of {@code TaskLocation}, or null for Spark's
   * own answer, which it also keeps for a cogroup that is cached or checkpointed (its blocks may be
   * elsewhere).
   */
  BiFunction<Object, Object, Object> taskHook() {
    return (rdd, partition) -> {
      ShuffleDependency<?, ?, ?> dep = StageReads.cogroupShuffle(rdd);
      RDD<?> r = (RDD<?>) rdd;
      if (dep == null || r.getStorageLevel() != StorageLevel.NONE() || r.isCheckpointed()) {
        return null;
      }
      Object where = location(dep, (Integer) partition);
      if (where == null) {
        return null;
      }
      List<TaskLocation> tasks = new ArrayList<>();
      for (Object host : CollectionConverters.asJava((scala.collection.immutable.Seq<?>) where)) {
        tasks.add(TaskLocation$.MODULE$.apply((String) host));
      }
      return CollectionConverters.asScala(tasks).toList();
    };
  }

  /**
   * Where a partition reading reducers {@code first} to {@code end} (exclusive) runs: each one's
   * location in turn, Spark's for those not placed; null (Spark's own answer) when none is placed.
   */
  private Object locations(ShuffleDependency<?, ?, ?> dep, int first, int end) {
    if (end - first == 1) {
      return location(dep, first);
    }
    Object[] each = new Object[end - first];
    boolean any = false;
    for (int r = first; r < end; r++) {
      each[r - first] = location(dep, r);
      any |= each[r - first] != null;
    }
    if (!any) {
      return null;
    }
    MapOutputTrackerMaster tracker = (MapOutputTrackerMaster) SparkEnv.get().mapOutputTracker();
    List<Object> all = new ArrayList<>();
    for (int r = first; r < end; r++) {
      Object where =
          each[r - first] != null
              ? each[r - first]
              : tracker.getPreferredLocationsForShuffle(dep, r);
      all.addAll(CollectionConverters.asJava((scala.collection.immutable.Seq<?>) where));
    }
    return CollectionConverters.asScala(all).toList();
  }

  /**
   * For {@code DAGScheduler.submitMissingTasks(stage, jobId)}: places the stage's shuffles as one
   * coflow.
   */
  BiConsumer<Object, Object> stageHook() {
    return (stage, jobId) -> stageSubmitted(StageReads.submitted(stage), (Integer) jobId);
  }

  private void stageSubmitted(StageReads.Submitted stage, int jobId) {
    List<ShuffleDependency<?, ?, ?>> deps = stage.shuffles();
    if (deps.isEmpty()) {
      return;
    }
    int reducers = deps.get(0).partitioner().numPartitions();
    int[] ids = new int[deps.size()];
    int[] maps = new int[deps.size()];
    for (int i = 0; i < deps.size(); i++) {
      ids[i] = deps.get(i).shuffleId();
      maps[i] = deps.get(i).rdd().getNumPartitions();
      if (deps.get(i).partitioner().numPartitions() != reducers) {
        return; // not a co-partitioned read: each shuffle is placed on its own when asked
      }
    }
    try {
      ReduceTaskRanges tasks;
      try {
        tasks = CoalescedReads.of(stage.rdd(), reducers);
      } catch (PlacementUnavailable e) {
        Arrays.stream(ids).forEach(sparks::add);
        throw e;
      }
      long start = System.nanoTime();
      ShufflePlacement p =
          coordinator.placeTogether(ids, maps, tasks, jobWeight.applyAsDouble(jobId));
      remember(p, System.nanoTime() - start);
      if (steers) {
        orders.placed(p, machines);
      }
    } catch (PlacementUnavailable | RuntimeException e) {
      sayOnce(Arrays.stream(ids).boxed().toList(), e);
    }
  }

  private Object location(ShuffleDependency<?, ?, ?> dep, int reducer) {
    int shuffleId = dep.shuffleId();
    if (sparks.contains(shuffleId)) {
      return null;
    }
    try {
      long start = System.nanoTime();
      ShufflePlacement placement =
          coordinator.place(
              shuffleId, dep.rdd().getNumPartitions(), dep.partitioner().numPartitions());
      long nanos = System.nanoTime() - start;
      remember(placement, nanos);
      return steers
          ? CollectionConverters.asScala(machines.locations(placement.executorOf(reducer))).toList()
          : null;
    } catch (PlacementUnavailable e) {
      if (mapStageRunning(dep)) {
        return null; // asked early (a coalesce plans its partitions first): Spark asks again
      }
      sayOnce(List.of(shuffleId), e);
      return null;
    } catch (RuntimeException e) {
      sayOnce(List.of(shuffleId), e);
      return null;
    }
  }

  /**
   * Whether Spark itself still lacks some of the shuffle's map output: then a placement cannot be
   * made yet, which is no fault; false when that cannot be told.
   */
  private static boolean mapStageRunning(ShuffleDependency<?, ?, ?> dep) {
    try {
      SparkEnv env = SparkEnv.get();
      return env != null
          && env.mapOutputTracker() instanceof MapOutputTrackerMaster tracker
          && tracker.getNumAvailableOutputs(dep.shuffleId()) < dep.rdd().getNumPartitions();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Keeps and logs a placement the first time it is seen; it took {@code nanos} to make. */
  private void remember(ShufflePlacement placement, long nanos) {
    synchronized (recent) {
      if (recent.get(placement.shuffleIds().get(0)) == placement) {
        return; // asked again for another reducer
      }
      for (int id : placement.shuffleIds()) {
        recent.put(id, placement);
      }
    }
    decided.accept(nanos);
    ReduceTaskRanges tasks = placement.tasks();
    if (!steers) {
      LOG.info(
          "coflow: shuffle {} ({} reducers) paced by {}; Spark places its reducers",
          placement.shuffleIds(),
          tasks.reducers(),
          placement.scheme());
      return;
    }
    LOG.info(
        "coflow: shuffle {} ({} reducers{}{}) placed by {} on executors {}",
        placement.shuffleIds(),
        tasks.reducers(),
        tasks.oneEach() ? "" : " in " + tasks.tasks() + (tasks.tasks() == 1 ? " task" : " tasks"),
        placement.weight() == 1 ? "" : ", weight " + placement.weight(),
        placement.scheme(),
        IntStream.range(0, tasks.tasks())
            .mapToObj(t -> placement.executorOfTask(t).executorId())
            .toList());
  }

  /**
   * Counts, and logs once per set of shuffles, why they keep Spark's placement: a warning, except
   * where they need none (read where their map output is).
   */
  private void sayOnce(List<Integer> shuffles, Exception why) {
    if (logged.add(shuffles)) {
      keptSpark.accept(cause(why));
      Object named = shuffles.size() == 1 ? shuffles.get(0) : shuffles;
      if (why instanceof PlacementUnavailable u && u.cause() == Cause.LOCAL_READ) {
        LOG.info("coflow: shuffle {} needs no placement: {}", named, why.getMessage());
      } else {
        LOG.warn("coflow: shuffle {} keeps Spark's reducer placement: {}", named, why.getMessage());
      }
    }
  }

  /**
   * What kept a placement from being made, as metrics name it: {@code mapOutput}, {@code
   * noExecutors}, {@code scheme}, {@code sparkRead}, {@code localRead}, {@code coordinator} (see
   * {@link PlacementUnavailable.Cause}), or {@code error} for a failure of ours.
   */
  static String cause(Exception why) {
    if (!(why instanceof PlacementUnavailable u)) {
      return "error";
    }
    StringBuilder name = new StringBuilder();
    for (String word : u.cause().name().toLowerCase(Locale.ROOT).split("_")) {
      name.append(
          name.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
    }
    return name.toString();
  }

  /**
   * Spark dropped the shuffle: what was noted of it goes (its placement stays among the last {@link
   * #HISTORY} kept for inspection).
   */
  void forget(int shuffleId) {
    sparks.remove(shuffleId);
    logged.removeIf(shuffles -> shuffles.contains(shuffleId));
  }

  /**
   * Shuffles noted now, for counting what an application holds; the placements kept for inspection
   * are not counted: at most {@link #HISTORY}.
   */
  int tracked() {
    return sparks.size() + logged.size();
  }
}
