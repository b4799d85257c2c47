package org.coflowshuffle.it.terasort;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Records, independently of the plugin, what happened to every stage that reads a shuffle: its job
 * group, when it was submitted and completed, and on which executor each of its tasks ran.
 */
final class ReduceTaskLog extends SparkListener {

  /** One reduce task as it ran. */
  record Task(int shuffleId, int partition, String executorId) {}

  /** One reduce stage: the shuffle it reads and its times, in milliseconds since the epoch. */
  static final class Stage {
    final String group;
    final int shuffleId;
    volatile long submitted;
    volatile long completed;

    Stage(String group, int shuffleId) {
      this.group = group;
      this.shuffleId = shuffleId;
    }
  }

  private final Map<Integer, Stage> reduceStages = new ConcurrentHashMap<>();
  final List<Task> tasks = java.util.Collections.synchronizedList(new ArrayList<>());

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
      tasks.add(new Task(s.shuffleId, end.taskInfo().partitionId(), end.taskInfo().executorId()));
    }
  }

  /** The reduce stages of one job group. */
  List<Stage> stagesOf(String group) {
    List<Stage> out = new ArrayList<>();
    for (Stage s : reduceStages.values()) {
      if (group.equals(s.group)) {
        out.add(s);
      }
    }
    return out;
  }
}
