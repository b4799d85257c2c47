/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

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
 * was submitted and completed, and on which executor each of its tasks ran. Register it before the
 * jobs run; read it after they finished.
 */
public final class ReduceTaskLog extends SparkListener {

  /** One reduce task as it ran. */
  public record Task(int shuffleId, int partition, String executorId, String host) {}

  /**
   * What the reduce stages of one job group did.
   *
   * @param stageSeconds summed time from submission to completion of its reduce stages: the
   *     shuffle's completion time as Spark sees it (map output complete to last reducer done)
   * @param tasks reduce tasks that succeeded
   * @param placed of those, tasks that ran on the executor the coordinator chose
   * @param hosts of those, how many ran on each host
   * @param submittedMillis when its first reduce stage was submitted (wall clock; 0 if none ran)
   */
  public record Summary(
      double stageSeconds,
      int tasks,
      int placed,
      Map<String, Integer> hosts,
      long submittedMillis) {}

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

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    String group =
        job.properties() == null ? null : job.properties().getProperty("spark.jobGroup.id");
    Map<Integer, Integer> written = new ConcurrentHashMap<>();
    List<StageInfo> stages = CollectionConverters.asJava(job.stageInfos());
    for (StageInfo s : stages) {
      if (s.shuffleDepId().isDefined()) {
        written.put(s.stageId(), (Integer) s.shuffleDepId().get());
      }
    }
    for (StageInfo s : stages) {
      for (Object parent : CollectionConverters.asJava(s.parentIds())) {
        Integer shuffle = written.get((Integer) parent);
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
    Stage s = reduceStages.get(end.stageId());
    if (s != null && end.taskInfo().successful()) {
      TaskInfo t = end.taskInfo();
      s.tasks.add(new Task(s.shuffleId, t.partitionId(), t.executorId(), t.host()));
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
    for (Stage s : reduceStages.values()) {
      if (!group.equals(s.group) || s.submitted == 0) {
        continue;
      }
      seconds += (s.completed - s.submitted) / 1000.0;
      submitted = submitted == 0 ? s.submitted : Math.min(submitted, s.submitted);
      for (Task t : s.tasks) {
        tasks++;
        hosts.merge(t.host(), 1, Integer::sum);
        if (plugin && PlacementCheck.ranWherePlaced(t)) {
          placed++;
        }
      }
    }
    return new Summary(seconds, tasks, placed, hosts, submitted);
  }
}
