/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Records, independently of the plugin, every stage that reads a shuffle: its job group, when it
 * was submitted and completed, on which executor each of its tasks ran and how many shuffle bytes
 * it read; and per shuffle the bytes its map tasks wrote on each host. Register it before the jobs
 * run; read it after they finished.
 */
public final class ReduceTaskLog extends SparkListener {

  /**
   * One reduce task as it ran.
   *
   * @param bytesRead the shuffle bytes it read, from other hosts and its own
   */
  public record Task(
      int shuffleId, int partition, String executorId, String host, long bytesRead) {}

  /**
   * One reduce stage and the map output it read: what a flow model of the shuffle needs.
   *
   * @param submittedMillis when it was submitted (wall clock)
   * @param seconds from submission to completion
   * @param mapOutput bytes the shuffle's map tasks wrote, per host
   * @param tasks its reduce tasks that succeeded
   */
  public record Shuffle(
      int shuffleId,
      long submittedMillis,
      double seconds,
      Map<String, Long> mapOutput,
      List<Task> tasks) {}

  /**
   * What the reduce stages of one job group did.
   *
   * @param stageSeconds summed time from submission to completion of its reduce stages: the
   *     shuffle's completion time as Spark sees it (map output complete to last reducer done)
   * @param tasks reduce tasks that succeeded
   * @param placed of those, tasks that ran on the executor the coordinator chose
   * @param hosts of those, how many ran on each host
   * @param submittedMillis when its first reduce stage was submitted (wall clock; 0 if none ran)
   * @param shuffles its reduce stages, in the order they were submitted
   */
  public record Summary(
      double stageSeconds,
      int tasks,
      int placed,
      Map<String, Integer> hosts,
      long submittedMillis,
      List<Shuffle> shuffles) {}

  private static final class Stage {
    final String group;
    final int shuffleId;
    volatile long submitted;
    volatile long completed;
    final Queue<Task> tasks = new ConcurrentLinkedQueue<>();

    Stage(String group, int shuffleId) {
      this.group = group;
      this.shuffleId = shuffleId;
    }
  }

  private final Map<Integer, Stage> reduceStages = new ConcurrentHashMap<>();
  private final Map<Integer, Integer> mapStages = new ConcurrentHashMap<>(); // stage -> shuffle
  private final Map<Integer, Map<String, Long>> written = new ConcurrentHashMap<>(); // by shuffle

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    String group =
        job.properties() == null ? null : job.properties().getProperty("spark.jobGroup.id");
    List<StageInfo> stages = CollectionConverters.asJava(job.stageInfos());
    for (StageInfo s : stages) {
      if (s.shuffleDepId().isDefined()) {
        mapStages.put(s.stageId(), (Integer) s.shuffleDepId().get());
      }
    }
    for (StageInfo s : stages) {
      for (Object parent : CollectionConverters.asJava(s.parentIds())) {
        Integer shuffle = mapStages.get((Integer) parent);
        if (shuffle != null) {
          reduceStages.putIfAbsent(s.stageId(), new Stage(group, shuffle));
        }
      }
    }
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    Stage s = reduceStages.get(submitted.stageInfo().stageId());
    if (s != null) {
      s.submitted = System.currentTimeMillis();
    }
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted completed) {
    Stage s = reduceStages.get(completed.stageInfo().stageId());
    if (s != null) {
      s.completed = System.currentTimeMillis();
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    TaskInfo t = end.taskInfo();
    if (!t.successful() || end.taskMetrics() == null) {
      return;
    }
    Integer shuffle = mapStages.get(end.stageId());
    if (shuffle != null) {
      written
          .computeIfAbsent(shuffle, k -> new ConcurrentHashMap<>())
          .merge(t.host(), end.taskMetrics().shuffleWriteMetrics().bytesWritten(), Long::sum);
    }
    Stage s = reduceStages.get(end.stageId());
    if (s != null) {
      var read = end.taskMetrics().shuffleReadMetrics();
      long bytes = read.remoteBytesRead() + read.localBytesRead();
      s.tasks.add(new Task(s.shuffleId, t.partitionId(), t.executorId(), t.host(), bytes));
    }
  }

  /**
   * Waits until the listener bus delivered every event posted so far (call after the jobs ended and
   * before {@link #summary}); Spark delivers them on its own thread, after the job returns.
   */
  public static void drain(SparkContext sc) {
    try {
      sc.listenerBus().waitUntilEmpty(60_000); // Spark-internal, public in bytecode
    } catch (TimeoutException e) {
      throw new IllegalStateException("listener events still queued after 60 s", e);
    }
  }

  /**
   * The reduce stages of one job group that ran (stages skipped because their output existed are
   * left out).
   *
   * @param plugin whether to compare with the plugin's placements (false: {@code placed} is 0)
   */
  public Summary summary(String group, boolean plugin) {
    double seconds = 0;
    int tasks = 0;
    int placed = 0;
    Map<String, Integer> hosts = new TreeMap<>();
    long submitted = 0;
    List<Shuffle> shuffles = new ArrayList<>();
    for (Stage s : reduceStages.values()) {
      if (!group.equals(s.group) || s.submitted == 0) {
        continue;
      }
      Shuffle shuffle =
          new Shuffle(
              s.shuffleId,
              s.submitted,
              (s.completed - s.submitted) / 1000.0,
              new TreeMap<>(written.getOrDefault(s.shuffleId, Map.of())),
              List.copyOf(s.tasks));
      shuffles.add(shuffle);
      seconds += shuffle.seconds();
      submitted = submitted == 0 ? s.submitted : Math.min(submitted, s.submitted);
      for (Task t : s.tasks) {
        tasks++;
        hosts.merge(t.host(), 1, Integer::sum);
        if (plugin && PlacementCheck.ranWherePlaced(t)) {
          placed++;
        }
      }
    }
    shuffles.sort(Comparator.comparingLong(Shuffle::submittedMillis));
    return new Summary(seconds, tasks, placed, hosts, submitted, List.copyOf(shuffles));
  }
}
