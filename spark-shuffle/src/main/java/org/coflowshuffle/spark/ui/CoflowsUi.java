/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import org.apache.spark.SparkContext;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;

/**
 * Puts the coflows where Spark users look, in a driver: {@link CoflowCompleted} events on the
 * listener bus (and so in the event log, with {@code spark.eventLog.enabled}), kept in the status
 * store, and the Coflows tab on the application's UI when it has one ({@code spark.ui.enabled}).
 */
public final class CoflowsUi {

  private final SparkContext sc;

  private CoflowsUi(SparkContext sc) {
    this.sc = sc;
  }

  /** Attaches the store listener and the tab to the application's UI. */
  public static CoflowsUi attach(SparkContext sc) {
    ElementTrackingStore store = (ElementTrackingStore) sc.statusStore().store();
    sc.listenerBus().addToStatusQueue(new CoflowStoreListener(store));
    if (sc.ui().isDefined()) {
      SparkUI ui = sc.ui().get();
      ui.attachTab(new CoflowsTab(ui, store));
    }
    return new CoflowsUi(sc);
  }

  /** A coflow completed: to the event log and the tab. */
  public void completed(CoflowCompleted c) {
    sc.listenerBus().post(c);
  }
}
