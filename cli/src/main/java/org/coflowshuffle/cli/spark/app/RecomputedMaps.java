/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/**
 * Counts the map tasks Spark ran again to recompute lost map output: the successful tasks of a
 * shuffle-map stage's later attempts (after a fetch failure, Spark resubmits the stage for the
 * partitions whose output was lost). What a fault cost in recomputation, for the fault drill.
 */
public final class RecomputedMaps extends SparkListener {

  private final Set<String> retriedMapStages = ConcurrentHashMap.newKeySet();
  private final AtomicInteger tasks = new AtomicInteger();

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    StageInfo s = submitted.stageInfo();
    if (s.shuffleDepId().isDefined() && s.attemptNumber() > 0) {
      retriedMapStages.add(s.stageId() + "." + s.attemptNumber());
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    if (end.reason() == Success$.MODULE$
        && retriedMapStages.contains(end.stageId() + "." + end.stageAttemptId())) {
      tasks.incrementAndGet();
    }
  }

  /** Map tasks run again so far. */
  public int count() {
    return tasks.get();
  }
}
