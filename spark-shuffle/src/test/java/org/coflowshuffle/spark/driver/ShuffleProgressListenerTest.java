/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.spark.Success$;
import org.apache.spark.TaskState;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the driver tells the coordinator as Spark's events come: here, which reduce tasks ended, so
 * that a reducer whose task is over stops competing for its host's link.
 */
class ShuffleProgressListenerTest {

  private static final int SHUFFLE = 0;
  private static final int MAP_STAGE = 1;
  private static final int REDUCE_STAGE = 2;

  private ShuffleCoordinator coordinator;
  private ShuffleProgressListener listener;

  @BeforeEach
  void aJobWhoseReduceStageReadsOneShuffle() {
    coordinator = mock(ShuffleCoordinator.class);
    listener =
        new ShuffleProgressListener(
            coordinator,
            shuffle -> Optional.empty(),
            shuffle -> Optional.empty(),
            shuffles -> List.of(),
            executor -> {},
            (shuffle, reducer, executor) -> {},
            false);
    listener.onJobStart(
        new SparkListenerJobStart(
            0,
            0L,
            CollectionConverters.asScala(
                    List.of(stage(MAP_STAGE, 0, SHUFFLE), stage(REDUCE_STAGE, 0, -1, MAP_STAGE)))
                .toList(),
            new Properties()));
  }

  @Test
  void theTasksOfAStageAttemptedAgainAfterAFetchFailureEndTheirReducers() {
    attemptFailsAndIsSubmittedAgain();

    listener.onTaskEnd(taskEnd(1, 2, TaskState.FINISHED()));

    // Untold, the coordinator would pace the reducer's flows as if its task still fetched, against
    // the others on its host, until the stage ends.
    verify(coordinator).reducerDone(SHUFFLE, 2);
  }

  @Test
  void aTaskOfTheFailedAttemptFailingLateDoesNotEndTheReducerOfTheAttemptThatRunsNow() {
    attemptFailsAndIsSubmittedAgain();

    listener.onTaskEnd(taskEnd(0, 3, TaskState.FAILED()));
    verify(coordinator, never()).reducerDone(anyInt(), anyInt());

    listener.onTaskEnd(taskEnd(0, 3, TaskState.FINISHED()));
    verify(coordinator).reducerDone(SHUFFLE, 3); // Spark takes a zombie's result: that one is done
  }

  @Test
  void aFailedTaskOfTheAttemptThatRunsNowEndsItsReducerForItsRetry() {
    listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(REDUCE_STAGE, 0, -1), null));

    listener.onTaskEnd(taskEnd(0, 1, TaskState.FAILED()));

    verify(coordinator).reducerDone(SHUFFLE, 1);
  }

  @Test
  void onlyTheExecutorRunningAReducersTaskSpeaksForItsFetchUntilTheTaskEnds() {
    listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(REDUCE_STAGE, 0, -1), null));
    SparkListenerTaskEnd end = taskEnd(0, 2, TaskState.FINISHED());
    listener.onTaskStart(new SparkListenerTaskStart(REDUCE_STAGE, 0, end.taskInfo()));
    assertTrue(listener.tasks.asks(SHUFFLE, 2, "1"));
    assertFalse(listener.tasks.asks(SHUFFLE, 2, "9"));

    listener.onTaskEnd(end);

    assertFalse(listener.tasks.asks(SHUFFLE, 2, "1"));
  }

  /** The reduce stage's first attempt fails on a fetch failure; Spark submits attempt 1. */
  private void attemptFailsAndIsSubmittedAgain() {
    listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(REDUCE_STAGE, 0, -1), null));
    StageInfo failed = stage(REDUCE_STAGE, 0, -1);
    failed.failureReason_$eq(Option.apply("fetch failure"));
    listener.onStageCompleted(new SparkListenerStageCompleted(failed));
    listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(REDUCE_STAGE, 1, -1), null));
  }

  /** A stage of the job; {@code writes} is the shuffle it writes, or -1. */
  private static StageInfo stage(int id, int attempt, int writes, Integer... parents) {
    return new StageInfo(
        id,
        attempt,
        "stage " + id,
        4,
        CollectionConverters.asScala(List.<org.apache.spark.storage.RDDInfo>of()).toList(),
        CollectionConverters.asScala(List.<Object>of((Object[]) parents)).toList(),
        "",
        null,
        CollectionConverters.asScala(
                List.<scala.collection.immutable.Seq<org.apache.spark.scheduler.TaskLocation>>of())
            .toList(),
        writes >= 0 ? Option.apply((Object) writes) : Option.empty(),
        0,
        false,
        0);
  }

  private static SparkListenerTaskEnd taskEnd(
      int stageAttempt, int partition, scala.Enumeration.Value state) {
    TaskInfo info =
        new TaskInfo(
            100L + partition, partition, 0, partition, 0L, "1", "h1", TaskLocality.ANY(), false);
    info.markFinished(state, 1L);
    return new SparkListenerTaskEnd(
        REDUCE_STAGE, stageAttempt, "ResultTask", Success$.MODULE$, info, null, null);
  }
}
