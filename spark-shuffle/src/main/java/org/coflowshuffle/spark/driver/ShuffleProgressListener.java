/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.ReduceTaskRanges;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.spark.ui.CoflowCompleted;
import org.coflowshuffle.spark.ui.HostRate;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Feeds the coordinator what Spark's listener bus tells: executors joining and leaving, reduce
 * tasks ending (their reducers stop competing for bandwidth: one, or the run a task of coalesced
 * partitions read), and stages that read a shuffle completing (that shuffle's flows are then done
 * and it no longer competes with later ones). Tells where reduce tasks start, which is not always
 * where they were placed. A stage attempted again is followed as its first attempt was; a task of
 * an earlier attempt that fails late ends nothing of it.
 */
final class ShuffleProgressListener extends SparkListener {

  private final ShuffleCoordinator coordinator;

  /** The placement made for a shuffle, which says the reducers each of its stage's tasks read. */
  private final Function<Integer, Optional<ShufflePlacement>> placements;

  /** The same, only where its tasks were sent there (not where Spark places them itself). */
  private final Function<Integer, Optional<ShufflePlacement>> steered;

  /** Stage id to the shuffles it reads, learned when a job starts (skipped stages included). */
  private final Map<Integer, List<Integer>> shufflesRead = new ConcurrentHashMap<>();

  /**
   * Job id to the stages of {@link #shufflesRead} it added: a skipped stage never completes, so
   * they are dropped when their job ends.
   */
  private final Map<Integer, List<Integer>> stagesOfJob = new ConcurrentHashMap<>();

  /** Stages reading shuffles that Spark submitted and that have not completed: active coflows. */
  private final Set<Integer> active = ConcurrentHashMap.newKeySet();

  /**
   * Stage id to the last attempt of it Spark submitted, for the stages of {@link #shufflesRead}.
   */
  private final Map<Integer, Integer> attempts = new ConcurrentHashMap<>();

  /** Where the reduce tasks of the stages fetching now run: whose rate questions count. */
  final ReducerTasks tasks;

  private volatile DriverMetrics metrics;

  /** Where completed coflows go for the Coflows tab and the event log; null for nowhere. */
  private volatile Consumer<CoflowCompleted> shown;

  /** What the tasks of each active coflow did, by stage id. */
  private final Map<Integer, Tally> tallies = new ConcurrentHashMap<>();

  /**
   * What a coflow's successful reduce tasks read and where they ran; touched only on the listener's
   * thread.
   */
  private static final class Tally {
    final Map<String, Integer> ranOn = new TreeMap<>();
    final Map<String, Integer> placedOn = new TreeMap<>();
    String scheme = "";
    long bytesRead;
    int tasks;
    int ranWherePlaced;
  }

  /** The per-machine traffic sampled for the coflow that read these shuffles (claimed once). */
  private final Function<List<Integer>, List<HostRate>> traffic;

  /** Told of each executor that left, for what else is kept per executor. */
  private final Consumer<String> executorGone;

  /** Where a reduce task started, for each reducer it reads alone. */
  @FunctionalInterface
  interface ReducerStarted {
    void started(int shuffleId, int reducer, String executorId);
  }

  private final ReducerStarted reducerStarted;

  /**
   * Each executor stands for a machine of its own, as in Spark's {@code local-cluster} mode, whose
   * executors share one host to emulate a cluster; otherwise executors on one host share its links.
   */
  private final boolean executorsAlone;

  /** The executors of each machine, as they come and go. */
  final MachineExecutors machines = new MachineExecutors();

  ShuffleProgressListener(
      ShuffleCoordinator coordinator,
      Function<Integer, Optional<ShufflePlacement>> placements,
      Function<Integer, Optional<ShufflePlacement>> steered,
      Function<List<Integer>, List<HostRate>> traffic,
      Consumer<String> executorGone,
      ReducerStarted reducerStarted,
      boolean executorsAlone) {
    this.coordinator = coordinator;
    this.placements = placements;
    this.steered = steered;
    this.traffic = traffic;
    this.executorGone = executorGone;
    this.reducerStarted = reducerStarted;
    this.executorsAlone = executorsAlone;
    this.tasks =
        new ReducerTasks(
            (shuffle, reducer) ->
                steered
                    .apply(shuffle)
                    .filter(p -> p.tasks().taskOf(reducer) >= 0)
                    .map(p -> p.executorOfTask(p.tasks().taskOf(reducer)).executorId()));
  }

  @Override
  public void onExecutorAdded(SparkListenerExecutorAdded added) {
    ExecutorSlots e =
        new ExecutorSlots(
            added.executorId(),
            added.executorInfo().executorHost(),
            Math.max(1, added.executorInfo().totalCores()));
    e = executorsAlone ? e.alone() : e;
    machines.added(e);
    coordinator.executorAdded(e);
  }

  @Override
  public void onExecutorRemoved(SparkListenerExecutorRemoved removed) {
    machines.removed(removed.executorId());
    coordinator.executorRemoved(removed.executorId());
    executorGone.accept(removed.executorId());
  }

  /** From now on, coflows that complete are counted there. */
  void measure(DriverMetrics m) {
    metrics = m;
  }

  /** From now on, coflows that complete are shown there. */
  void show(Consumer<CoflowCompleted> sink) {
    shown = sink;
  }

  /** Coflows submitted and not completed. */
  int activeCoflows() {
    return active.size();
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    int stage = submitted.stageInfo().stageId();
    if (shufflesRead.containsKey(stage)) {
      active.add(stage);
      tallies.put(stage, new Tally());
      attempts.put(stage, submitted.stageInfo().attemptNumber());
      shufflesRead.get(stage).forEach(tasks::forget);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    Map<Integer, Integer> written = new ConcurrentHashMap<>();
    List<StageInfo> stages = CollectionConverters.asJava(job.stageInfos());
    for (StageInfo s : stages) {
      if (s.shuffleDepId().isDefined()) {
        written.put(s.stageId(), (Integer) s.shuffleDepId().get());
      }
    }
    List<Integer> added = new ArrayList<>();
    for (StageInfo s : stages) {
      List<Integer> read = new ArrayList<>();
      for (Object parent : CollectionConverters.asJava(s.parentIds())) {
        Integer shuffle = written.get((Integer) parent);
        if (shuffle != null) {
          read.add(shuffle);
        }
      }
      if (!read.isEmpty()) {
        shufflesRead.put(s.stageId(), read);
        added.add(s.stageId());
      }
    }
    stagesOfJob.put(job.jobId(), added);
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd end) {
    List<Integer> stages = stagesOfJob.remove(end.jobId());
    if (stages != null) {
      for (int stage : stages) {
        if (stagesOfJob.values().stream().noneMatch(other -> other.contains(stage))) {
          shufflesRead.remove(stage); // unless a job still running shares it
          attempts.remove(stage);
        }
      }
    }
  }

  /** Stages and jobs tracked now: for counting what a long-running application holds. */
  int tracked() {
    return shufflesRead.size() + stagesOfJob.size();
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart start) {
    List<Integer> read = shufflesRead.get(start.stageId());
    if (read == null) {
      return;
    }
    int task = start.taskInfo().partitionId();
    String executor = start.taskInfo().executorId();
    for (int s : read) {
      ReduceTaskRanges ranges = placements.apply(s).map(ShufflePlacement::tasks).orElse(null);
      if (ranges != null && task < ranges.tasks() && ranges.end(task) - ranges.first(task) == 1) {
        reducerStarted.started(s, ranges.first(task), executor);
      }
      if (!start.taskInfo().speculative()) { // the first copy fetches on where it runs
        forEachReducer(ranges, task, r -> tasks.started(s, r, executor));
      }
    }
  }

  /** Each reducer task {@code task} reads: its range, or the partition where none is known. */
  private static void forEachReducer(ReduceTaskRanges ranges, int task, IntConsumer action) {
    if (ranges == null || task >= ranges.tasks()) {
      action.accept(task);
    } else {
      for (int r = ranges.first(task); r < ranges.end(task); r++) {
        action.accept(r);
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    List<Integer> read = shufflesRead.get(end.stageId());
    if (read != null && (end.taskInfo().successful() || !fromEarlierAttempt(end))) {
      int task = end.taskInfo().partitionId();
      tally(end, read.get(0), task);
      for (int s : read) {
        ReduceTaskRanges ranges = placements.apply(s).map(ShufflePlacement::tasks).orElse(null);
        forEachReducer(
            ranges,
            task,
            r -> {
              tasks.ended(s, r);
              coordinator.reducerDone(s, r);
            });
      }
    }
  }

  /**
   * Whether the task ran in an attempt of its stage older than the last one submitted: a zombie,
   * whose failure says nothing of the reducer's task in the attempt that fetches now.
   */
  private boolean fromEarlierAttempt(SparkListenerTaskEnd end) {
    return end.stageAttemptId() < attempts.getOrDefault(end.stageId(), 0);
  }

  /** Counts a successful reduce task of an active coflow: where it ran, and where it was placed. */
  private void tally(SparkListenerTaskEnd end, int shuffle, int task) {
    Tally t = tallies.get(end.stageId());
    if (t == null || !end.taskInfo().successful()) {
      return;
    }
    String host = end.taskInfo().host();
    long bytes =
        end.taskMetrics() == null ? 0 : end.taskMetrics().shuffleReadMetrics().totalBytesRead();
    Optional<ShufflePlacement> placed = steered.apply(shuffle);
    t.tasks++;
    t.bytesRead += bytes;
    t.ranOn.merge(host, 1, Integer::sum);
    if (placed.isPresent() && task < placed.get().tasks().tasks()) {
      String at = placed.get().executorOfTask(task).host();
      t.scheme = placed.get().scheme();
      t.placedOn.merge(at, 1, Integer::sum);
      t.ranWherePlaced += at.equals(host) ? 1 : 0;
    }
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted completed) {
    StageInfo stage = completed.stageInfo();
    // A failed attempt is submitted again (or its job ends): the tasks of the next attempt end
    // their reducers as this one's did.
    boolean failed = stage.failureReason().isDefined();
    List<Integer> read =
        failed ? shufflesRead.get(stage.stageId()) : shufflesRead.remove(stage.stageId());
    if (!failed) {
      attempts.remove(stage.stageId());
    }
    List<HostRate> rates = read == null ? List.of() : traffic.apply(read);
    long fetchedMillis = 0;
    if (read != null) {
      double since = coordinator.sinceFetched(read.get(0)); // the stage's coflow, whichever read
      fetchedMillis =
          Double.isNaN(since) ? 0 : System.currentTimeMillis() - Math.round(since * 1e3);
      read.forEach(coordinator::fetchFinished);
      read.forEach(tasks::forget);
    }
    Tally t = tallies.remove(stage.stageId());
    if (!active.remove(stage.stageId())
        || failed
        || stage.submissionTime().isEmpty()
        || stage.completionTime().isEmpty()) {
      return;
    }
    long arrival = (Long) stage.submissionTime().get();
    long completion = (Long) stage.completionTime().get();
    DriverMetrics m = metrics;
    if (m != null) {
      m.completed(completion - arrival);
      if (t != null && !t.scheme.isEmpty()) {
        m.placed(t.tasks, t.ranWherePlaced);
      }
    }
    Consumer<CoflowCompleted> sink = shown;
    if (sink != null && t != null && read != null) {
      sink.accept(
          new CoflowCompleted(
              stage.stageId(),
              stage.attemptNumber(),
              stage.name(),
              read,
              t.scheme,
              arrival,
              completion,
              fetchedMillis,
              t.bytesRead,
              t.ranOn,
              t.placedOn,
              t.tasks,
              t.ranWherePlaced,
              rates));
    }
  }
}
