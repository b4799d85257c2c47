/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.driver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.coflowshuffle.spark.ui.HostRate;

/**
 * Each coflow's per-machine traffic over time, sampled from the coordinator ({@code
 * ShuffleCoordinator#hostTraffic}) once a second: the series its Coflows page draws, and the rates
 * each machine is planned and delivered now, for the metrics. A long coflow keeps at most {@link
 * #MOST_SAMPLES} samples: past that, every other one goes, which keeps the delivered rate over the
 * longer spans exact (samples carry bytes so far, not rates). Thread-safe.
 */
final class HostTraffic {

  static final int MOST_SAMPLES = 480;

  /** The shortest span the rates now are taken over. */
  private static final double MIN_SPAN_SECONDS = 0.5;

  /** A series no stage claimed for this long is dropped (its stage failed or was cancelled). */
  private static final long UNCLAIMED_MILLIS = 600_000;

  private static final class Series {
    final List<List<HostRate>> samples = new ArrayList<>(); // one list per sampling
    Map<String, double[]> last = Map.of();
    long lastMillis;
  }

  private final Map<List<Integer>, Series> series = new HashMap<>();

  /** Per machine: planned in, planned out, delivered in, delivered out, bytes per second. */
  private Map<String, double[]> now = Map.of();

  private long lastMillis = -1;

  /** Records one sampling of {@code traffic}, made at {@code millis}. */
  synchronized void sample(long millis, Map<List<Integer>, Map<String, double[]>> traffic) {
    double seconds = lastMillis < 0 ? Double.NaN : (millis - lastMillis) / 1000.0;
    lastMillis = millis;
    Map<String, double[]> rates = new TreeMap<>();
    traffic.forEach(
        (shuffles, byMachine) -> {
          Series s = series.computeIfAbsent(shuffles, x -> new Series());
          List<HostRate> at = new ArrayList<>(byMachine.size());
          byMachine.forEach(
              (host, v) -> {
                double[] r = rates.computeIfAbsent(host, x -> new double[4]);
                double[] before = s.last.getOrDefault(host, new double[4]);
                r[0] += v[0];
                r[1] += v[1];
                r[2] += Math.max(0, v[2] - before[2]) / seconds; // NaN at the first sampling
                r[3] += Math.max(0, v[3] - before[3]) / seconds;
                at.add(new HostRate(millis, host, v[0], v[1], (long) v[2], (long) v[3]));
              });
          s.samples.add(at);
          if (s.samples.size() > MOST_SAMPLES) {
            for (int i = s.samples.size() - 2; i >= 0; i -= 2) {
              s.samples.remove(i); // the last stays
            }
          }
          s.last = byMachine;
          s.lastMillis = millis;
        });
    series.values().removeIf(s -> millis - s.lastMillis > UNCLAIMED_MILLIS);
    if (!(seconds < MIN_SPAN_SECONDS)) { // a sampling at a stage's end may follow closely
      now = seconds > 0 ? rates : Map.of();
    }
  }

  /**
   * The samples of the coflow that read {@code shuffles}, by time and machine: those of every
   * series whose shuffles it read, which are then forgotten.
   */
  synchronized List<HostRate> claim(List<Integer> shuffles) {
    List<HostRate> out = new ArrayList<>();
    series
        .entrySet()
        .removeIf(
            e -> {
              if (!shuffles.containsAll(e.getKey())) {
                return false;
              }
              e.getValue().samples.forEach(out::addAll);
              return true;
            });
    out.sort(Comparator.comparingLong(HostRate::atMillis).thenComparing(HostRate::host));
    return out;
  }

  /**
   * Per machine that a fetching stage's flows cross, the rates over the last sampling span: planned
   * in (at 0) and out (at 1) at its end, delivered in (at 2) and out (at 3), bytes per second.
   */
  synchronized Map<String, double[]> now() {
    return now;
  }
}
