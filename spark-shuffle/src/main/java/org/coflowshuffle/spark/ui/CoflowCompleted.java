/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.kvstore.KVIndex;

/**
 * A coflow, once its stage completed: the event the driver posts on Spark's listener bus, so that
 * it goes into the event log, and the row the Coflows tab shows, live and in the History Server
 * (Spark's status store keeps it under {@link #id}). A coflow is a stage that reads shuffles: it
 * arrives when Spark submits the stage and completes when the stage does.
 *
 * @param shuffleIds the shuffles the stage reads
 * @param scheme the scheme that placed its reducers; empty where Spark's placement was kept
 * @param arrivalMillis when Spark submitted the stage, epoch milliseconds
 * @param completionMillis when it completed
 * @param fetchedMillis when its reduce tasks had every byte they fetch over the network, before
 *     they sort and write (the coflow's end as the RPC paper counts it); 0 where not known (Spark's
 *     placement kept, a standalone coordinator, nothing over the network, or an event log of an
 *     older plugin)
 * @param bytesRead shuffle bytes its tasks read, from other hosts and their own
 * @param ranOn hosts its reduce tasks ran on (successful attempts), with how many each
 * @param placedOn hosts the coordinator placed them on, with how many each; empty where Spark's
 *     placement was kept
 * @param tasks reduce tasks that succeeded
 * @param ranWherePlaced how many of them ran on the host they were placed on
 * @param rates per machine its flows crossed, planned and delivered traffic over time, by time;
 *     empty where Spark's placement was kept or the coordinator is standalone
 */
public record CoflowCompleted(
    int stageId,
    int stageAttempt,
    String name,
    List<Integer> shuffleIds,
    String scheme,
    long arrivalMillis,
    long completionMillis,
    long fetchedMillis,
    long bytesRead,
    Map<String, Integer> ranOn,
    Map<String, Integer> placedOn,
    int tasks,
    int ranWherePlaced,
    List<HostRate> rates)
    implements SparkListenerEvent {

  public CoflowCompleted {
    shuffleIds = List.copyOf(shuffleIds);
    ranOn = new TreeMap<>(ranOn);
    placedOn = new TreeMap<>(placedOn);
    rates = rates == null ? List.of() : List.copyOf(rates); // null: an event log of an older plugin
  }

  /** The key in Spark's status store: stage and attempt. */
  @KVIndex
  public String id() {
    return stageId + "." + stageAttempt;
  }

  /** The coflow completion time, seconds. */
  public double cctSeconds() {
    return (completionMillis - arrivalMillis) / 1000.0;
  }

  /** Seconds from its arrival until its bytes over the network were in; NaN where not known. */
  public double fetchSeconds() {
    return fetchedMillis > 0 ? (fetchedMillis - arrivalMillis) / 1000.0 : Double.NaN;
  }
}
