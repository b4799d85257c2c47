/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the stages fetching look like to an operator: the driver's periodic log lines (planned
 * against delivered rates per host) and the snapshot that status pages and metrics show. Not
 * thread-safe: {@link LiveCoordinator} guards it.
 */
final class StatusView {

  private final ExecutorRegistry executors;
  private final FetchingStages fetching;

  /** When {@link #lines} was last called, on the coordinator's clock. */
  private double lastAt = Double.NaN;

  /**
   * Per executor, bytes that stages which stopped fetching since then delivered after the last
   * {@link #lines} saw them (at index 1; no rate at index 0).
   */
  private final Map<String, double[]> sentByStopped = new HashMap<>();

  StatusView(ExecutorRegistry executors, FetchingStages fetching) {
    this.executors = executors;
    this.fetching = fetching;
  }

  /** A stage stopped fetching: what it delivered since the last lines still counts in the next. */
  void stopped(FetchingCoflow stage) {
    Map<String, double[]> out = new HashMap<>();
    stage.addLinksOut(out);
    out.forEach((e, v) -> add(sentByStopped, e, new double[] {0, v[1]}));
  }

  /** See {@link LiveCoordinator#status}. */
  List<String> lines(double now) {
    double since = now - lastAt;
    lastAt = now;
    List<String> lines = new ArrayList<>();
    Map<String, double[]> all = new TreeMap<>();
    fetching.forEach(
        (key, c) -> {
          Map<String, double[]> byExecutor = new HashMap<>();
          c.addLinksOut(byExecutor);
          Map<String, double[]> byHost = new TreeMap<>();
          byExecutor.forEach((e, v) -> add(byHost, executors.machineOf(e), v));
          byHost.forEach((h, v) -> add(all, h, v));
          String out = linksOut(byHost, since);
          lines.add(
              "shuffle "
                  + FetchingStages.name(key)
                  + ": "
                  + c.status()
                  + (out.isEmpty() ? "" : "; out " + out));
        });
    sentByStopped.forEach((e, v) -> add(all, executors.machineOf(e), v));
    sentByStopped.clear();
    String out = linksOut(all, since);
    if (!out.isEmpty()) {
      lines.add("links out " + out);
    }
    return lines;
  }

  /** See {@link LiveCoordinator#snapshot}. */
  List<FetchingStatus> snapshot() {
    List<FetchingStatus> out = new ArrayList<>();
    fetching.forEach((key, c) -> out.add(c.summary(key)));
    return out;
  }

  private static void add(Map<String, double[]> to, String host, double[] rateAndBytes) {
    double[] v = to.computeIfAbsent(host, x -> new double[2]);
    v[0] += rateAndBytes[0];
    v[1] += rateAndBytes[1];
  }

  /**
   * Per host, the rate out that the current decision gives against the rate delivered over the last
   * {@code since} seconds, e.g. {@code (planned/delivered MB/s): h5 0.24/0.19}. Where the second
   * falls short of the first, the plan is not what the links carry: the reducers started late, or
   * their fetches cannot keep the pace. Empty on the first call ({@code since} NaN), which only
   * starts the count.
   */
  private static String linksOut(Map<String, double[]> byHost, double since) {
    StringBuilder out = new StringBuilder();
    byHost.forEach(
        (h, v) -> {
          if (since > 0 && (v[0] > 0 || v[1] > 0)) {
            out.append(out.length() == 0 ? "" : ", ")
                .append(
                    String.format(Locale.ROOT, "%s %.2f/%.2f", h, v[0] / 1e6, v[1] / since / 1e6));
          }
        });
    return out.length() == 0 ? "" : "(planned/delivered MB/s): " + out;
  }
}
