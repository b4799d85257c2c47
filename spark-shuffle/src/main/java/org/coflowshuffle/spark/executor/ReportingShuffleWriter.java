/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.io.IOException;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.shuffle.ShuffleWriter;
import org.coflowshuffle.spark.Messages;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;

/**
 * Spark's writer for one map task, plus a report of the exact bytes it wrote per reducer once it
 * succeeded. The report is sent before the task ends, so the driver knows every size by the time
 * the reduce stage asks where its tasks should run.
 */
public final class ReportingShuffleWriter<K, V> extends ShuffleWriter<K, V> {

  private final ShuffleWriter<K, V> delegate;
  private final int shuffleId;
  private final int mapIndex;

  public ReportingShuffleWriter(ShuffleWriter<K, V> delegate, int shuffleId, int mapIndex) {
    this.delegate = delegate;
    this.shuffleId = shuffleId;
    this.mapIndex = mapIndex;
  }

  @Override
  public void write(Iterator<Product2<K, V>> records) throws IOException {
    delegate.write(records);
  }

  @Override
  public Option<MapStatus> stop(boolean success) {
    Option<MapStatus> status = delegate.stop(success);
    if (success && status.isDefined()) {
      DriverLink.report(
          new Messages.MapOutput(
              shuffleId,
              mapIndex,
              status.get().location().executorId(),
              delegate.getPartitionLengths()));
    }
    return status;
  }

  @Override
  public long[] getPartitionLengths() {
    return delegate.getPartitionLengths();
  }
}
