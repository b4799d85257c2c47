/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.coordinator.server.CoordinatorServer;

/**
 * The coordinator under load in {@code bench coordinator}, and how its counters are read: in this
 * JVM ({@link InProcess}), or elsewhere through its {@code /metrics} ({@link Remote}).
 */
interface CoordinatorProbe {
  InetSocketAddress address();

  /** Its counters now, to measure from. */
  long[] mark() throws IOException, InterruptedException;

  Window since(long[] mark) throws IOException, InterruptedException;

  String describe();

  /** What the coordinator did between two marks: decisions, flow rates pushed, latency p50/p99. */
  record Window(long decisions, long ratesPushed, double p50, double p99) {}

  /** A coordinator in this JVM: every decision's latency, exact. */
  record InProcess(CoordinatorServer server) implements CoordinatorProbe {
    @Override
    public InetSocketAddress address() {
      return server.address();
    }

    @Override
    public long[] mark() {
      return new long[] {server.decisions(), server.ratesPushed()};
    }

    @Override
    public Window since(long[] mark) {
      double[] latency = server.decisionLatenciesSince(mark[0]);
      Arrays.sort(latency);
      return new Window(
          latency.length,
          server.ratesPushed() - mark[1],
          quantile(latency, 0.5),
          quantile(latency, 0.99));
    }

    @Override
    public String describe() {
      return "in this JVM; latency from every decision";
    }
  }

  /**
   * A coordinator elsewhere (its own JVM, say pinned to its own core): its {@code /metrics}, with
   * latency quantiles from the histogram's buckets, interpolated within a bucket as Prometheus'
   * {@code histogram_quantile} does. Whether p99 is within 10 ms is exact, a bucket ending there.
   */
  final class Remote implements CoordinatorProbe {
    private static final String BUCKET = "coflow_decision_latency_seconds_bucket{le=\"";
    private final InetSocketAddress address;
    private final URI metrics;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Double> bounds = new ArrayList<>();

    Remote(InetSocketAddress address, InetSocketAddress httpAddress) {
      this.address = address;
      this.metrics =
          URI.create(
              "http://" + httpAddress.getHostString() + ":" + httpAddress.getPort() + "/metrics");
    }

    @Override
    public InetSocketAddress address() {
      return address;
    }

    /** Decisions, rates pushed, then the cumulative count of every bucket. */
    @Override
    public long[] mark() throws IOException, InterruptedException {
      String text =
          http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
              .body();
      List<Long> values = new ArrayList<>(List.of(0L, 0L));
      List<Double> les = new ArrayList<>();
      for (String line : text.split("\n")) {
        String[] kv = line.split(" ");
        if (line.startsWith("coflow_decisions_total ")) {
          values.set(0, count(kv[1]));
        } else if (line.startsWith("coflow_flow_rates_pushed_total ")) {
          values.set(1, count(kv[1]));
        } else if (line.startsWith(BUCKET)) {
          String le = line.substring(BUCKET.length(), line.indexOf('"', BUCKET.length()));
          les.add(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le));
          values.add(count(kv[1]));
        }
      }
      if (les.isEmpty()) {
        throw new IOException("no decision latency histogram at " + metrics);
      }
      bounds.clear();
      bounds.addAll(les);
      return values.stream().mapToLong(Long::longValue).toArray();
    }

    /** A count as Prometheus text writes it: {@code 12} or {@code 12.0}. */
    private static long count(String value) {
      return (long) Double.parseDouble(value);
    }

    @Override
    public Window since(long[] mark) throws IOException, InterruptedException {
      long[] now = mark();
      long[] cumulative = new long[bounds.size()];
      for (int i = 0; i < cumulative.length; i++) {
        cumulative[i] = now[2 + i] - mark[2 + i];
      }
      return new Window(
          now[0] - mark[0],
          now[1] - mark[1],
          histogramQuantile(bounds, cumulative, 0.5),
          histogramQuantile(bounds, cumulative, 0.99));
    }

    @Override
    public String describe() {
      return address.getHostString()
          + ":"
          + address.getPort()
          + "; latency from its /metrics histogram, interpolated within buckets";
    }
  }

  /**
   * The q-quantile of a histogram of cumulative counts per upper bound, linear within the bucket it
   * falls in (NaN when empty; the last finite bound when it falls in the +Inf bucket).
   */
  static double histogramQuantile(List<Double> bounds, long[] cumulative, double q) {
    long total = cumulative[cumulative.length - 1];
    if (total == 0) {
      return Double.NaN;
    }
    double rank = q * total;
    for (int i = 0; i < cumulative.length; i++) {
      if (cumulative[i] >= rank) {
        double upper = bounds.get(i);
        double lower = i == 0 ? 0 : bounds.get(i - 1);
        if (Double.isInfinite(upper)) {
          return lower;
        }
        long below = i == 0 ? 0 : cumulative[i - 1];
        return lower + (upper - lower) * (rank - below) / (cumulative[i] - below);
      }
    }
    return bounds.get(bounds.size() - 2);
  }

  static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }
}
