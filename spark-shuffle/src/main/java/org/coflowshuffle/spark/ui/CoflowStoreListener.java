/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.status.ElementTrackingStore;

/**
 * Keeps each {@link CoflowCompleted} on the listener bus in Spark's status store, where the Coflows
 * tab reads it: in the driver as the application runs, and in the History Server as it replays the
 * event log.
 */
public final class CoflowStoreListener extends SparkListener {

  private final ElementTrackingStore store;

  public CoflowStoreListener(ElementTrackingStore store) {
    this.store = store;
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof CoflowCompleted c) {
      store.write(c);
    }
  }
}
