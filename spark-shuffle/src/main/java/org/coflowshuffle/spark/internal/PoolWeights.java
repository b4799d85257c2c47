/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToDoubleFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.ActiveJob;
import org.apache.spark.scheduler.Schedulable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * The weight of the scheduler pool a job runs in ({@code spark.scheduler.pool}, weights from the
 * fair scheduler's allocation file), which becomes the weight of the coflows its stages read: an
 * operator who gives a pool twice the weight for its share of cores gets twice the share of
 * contended links for its shuffles under the schemes that weigh coflows. Jobs outside any pool (the
 * FIFO scheduler) weigh 1.
 *
 * <p>Called inside {@code DAGScheduler.submitMissingTasks} on Spark's event loop, the thread that
 * owns the active jobs, so reading them needs no lock. Spark keeps those internals private to its
 * own packages; if they change, every job weighs 1 and the log says why once.
 */
public final class PoolWeights implements IntToDoubleFunction {

  private static final Logger LOG = LoggerFactory.getLogger(PoolWeights.class);

  private final SparkContext sc;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public PoolWeights(SparkContext sc) {
    this.sc = sc;
  }

  @Override
  public double applyAsDouble(int jobId) {
    String pool = null;
    try {
      Option<ActiveJob> job = sc.dagScheduler().jobIdToActiveJob().get(jobId);
      Properties p = job.isDefined() ? job.get().properties() : null;
      pool = p == null ? null : p.getProperty("spark.scheduler.pool");
      Option<Schedulable> s = sc.getPoolForName(pool == null ? "default" : pool);
      if (s.isEmpty()) {
        return 1; // the FIFO scheduler has no pools
      }
      int weight = s.get().weight();
      if (weight > 0) {
        return weight;
      }
      warnOnce(pool, "pool " + pool + " has weight " + weight + ": its shuffles weigh 1");
    } catch (RuntimeException | LinkageError e) {
      warnOnce(null, "cannot read the job's scheduler pool, shuffles weigh 1: " + e);
    }
    return 1;
  }

  private void warnOnce(String key, String why) {
    if (warned.add(String.valueOf(key))) {
      LOG.warn("coflow: {}", why);
    }
  }
}
