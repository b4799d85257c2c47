/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.coflowshuffle.spark.ui.CoflowCompleted;

/**
 * When each shuffle's bytes over the network were in, as the plugin's driver tells with every
 * coflow it completes ({@link CoflowCompleted#fetchedMillis}): the end of a coflow as the RPC paper
 * and the flow model count it, where the reduce stage's end adds the reducers' sorting and writing.
 * A class of its own so that stock runs, which lack the plugin's JAR, never load it.
 */
public final class FetchEnds extends SparkListener {

  private static final Map<Integer, Long> BY_SHUFFLE = new ConcurrentHashMap<>();

  private FetchEnds() {}

  /** Starts recording the coflows the plugin completes in {@code sc}. */
  public static void listen(SparkContext sc) {
    sc.addSparkListener(new FetchEnds());
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof CoflowCompleted c && c.fetchedMillis() > 0) {
      c.shuffleIds().forEach(s -> BY_SHUFFLE.put(s, c.fetchedMillis()));
    }
  }

  /**
   * Seconds from a job's first reduce stage's submission until the bytes of all its reduce stages
   * over the network were in; NaN where one's is not known (nothing crossed the network, or the
   * coordinator is standalone).
   */
  public static double seconds(ReduceTaskLog.Summary job) {
    long last = 0;
    for (ReduceTaskLog.Shuffle s : job.shuffles()) {
      long in = BY_SHUFFLE.getOrDefault(s.shuffleId(), 0L);
      if (in <= 0) {
        return Double.NaN;
      }
      last = Math.max(last, in);
    }
    return last > 0 ? (last - job.submittedMillis()) / 1000.0 : Double.NaN;
  }
}
