/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.status.AppHistoryServerPlugin;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Coflows tab in Spark's History Server: found there through {@code META-INF/services} when the
 * plugin's JAR is on its class path, it keeps the {@link CoflowCompleted} events of a replayed
 * event log and shows the tab of applications that had coflows.
 */
public final class CoflowHistoryPlugin implements AppHistoryServerPlugin {

  @Override
  public Seq<SparkListener> createListeners(SparkConf conf, ElementTrackingStore store) {
    return CollectionConverters.asScala(List.<SparkListener>of(new CoflowStoreListener(store)))
        .toSeq();
  }

  @Override
  public void setupUI(SparkUI ui) {
    try {
      if (ui.store().store().count(CoflowCompleted.class) > 0) {
        ui.attachTab(new CoflowsTab(ui, ui.store().store()));
      }
    } catch (Exception e) {
      throw new IllegalStateException("coflow: the status store cannot be read: " + e, e);
    }
  }
}
