/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.MessageType;

/**
 * Counters of the service, rendered in Prometheus' text format for {@code /metrics}. Thread-safe:
 * network threads count frames, the scheduling thread counts decisions.
 */
final class CoordinatorMetrics {

  /** Upper bounds of the decision latency buckets, seconds. */
  private static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5
  };

  private final Map<MessageType, LongAdder> frames = new EnumMap<>(MessageType.class);
  private final Map<ErrorCode, LongAdder> errors = new EnumMap<>(ErrorCode.class);
  private final LongAdder connections = new LongAdder();
  private final AtomicLong open = new AtomicLong();
  private final LongAdder ratesPushed = new LongAdder();
  private final long[] latencyBuckets = new long[BUCKETS.length + 1];
  private double latencySum;
  private long latencyCount;

  /** The latest latencies, seconds, for benchmarks' percentiles (a ring of {@link #SAMPLES}). */
  private final double[] samples = new double[SAMPLES];

  private static final int SAMPLES = 1 << 16;

  CoordinatorMetrics() {
    for (MessageType t : MessageType.values()) {
      frames.put(t, new LongAdder());
    }
    for (ErrorCode c : ErrorCode.values()) {
      errors.put(c, new LongAdder());
    }
  }

  void frame(MessageType t) {
    frames.get(t).increment();
  }

  void error(ErrorCode c) {
    errors.get(c).increment();
  }

  void opened() {
    connections.increment();
    open.incrementAndGet();
  }

  void closed() {
    open.decrementAndGet();
  }

  /** Connections open now. */
  long openConnections() {
    return open.get();
  }

  /** A decision went out: {@code seconds} from the first event it answers until it was sent. */
  synchronized void decision(double seconds, int flowRates) {
    ratesPushed.add(flowRates);
    int b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]) {
      b++;
    }
    latencyBuckets[b]++;
    latencySum += seconds;
    samples[(int) (latencyCount % SAMPLES)] = seconds;
    latencyCount++;
  }

  /** Flow rates pushed so far. */
  long ratesPushed() {
    return ratesPushed.sum();
  }

  /** Decisions so far. */
  synchronized long decisions() {
    return latencyCount;
  }

  /**
   * The latencies of decisions {@code from} (a count from {@link #decisions}) on, at most the last
   * 65,536.
   */
  synchronized double[] latenciesSince(long from) {
    long first = Math.max(from, latencyCount - SAMPLES);
    double[] out = new double[(int) Math.max(0, latencyCount - first)];
    for (int i = 0; i < out.length; i++) {
      out[i] = samples[(int) ((first + i) % SAMPLES)];
    }
    return out;
  }

  /** The text of {@code /metrics}, with gauges from the current status. */
  synchronized String prometheus(Status status) {
    StringBuilder b = new StringBuilder();
    help(b, "coflow_frames_received_total", "counter", "Frames received, by message type.");
    frames.forEach((t, n) -> line(b, "coflow_frames_received_total{type=\"" + t + "\"}", n.sum()));
    help(b, "coflow_frame_errors_total", "counter", "Frames refused, by error code.");
    errors.forEach((c, n) -> line(b, "coflow_frame_errors_total{code=\"" + c + "\"}", n.sum()));
    help(b, "coflow_connections_total", "counter", "Connections accepted.");
    line(b, "coflow_connections_total", connections.sum());
    help(b, "coflow_connections_open", "gauge", "Connections open now.");
    line(b, "coflow_connections_open", open.get());
    help(b, "coflow_decisions_total", "counter", "Placements and rate decisions sent.");
    line(b, "coflow_decisions_total", latencyCount);
    help(b, "coflow_flow_rates_pushed_total", "counter", "Flow rates sent to fetchers.");
    line(b, "coflow_flow_rates_pushed_total", ratesPushed.sum());
    help(
        b,
        "coflow_decision_latency_seconds",
        "histogram",
        "From the first event a decision answers until it is sent.");
    long cumulative = 0;
    for (int i = 0; i < BUCKETS.length; i++) {
      cumulative += latencyBuckets[i];
      line(
          b,
          String.format(
              Locale.ROOT, "coflow_decision_latency_seconds_bucket{le=\"%s\"}", BUCKETS[i]),
          cumulative);
    }
    cumulative += latencyBuckets[BUCKETS.length];
    line(b, "coflow_decision_latency_seconds_bucket{le=\"+Inf\"}", cumulative);
    b.append(String.format(Locale.ROOT, "coflow_decision_latency_seconds_sum %.6f%n", latencySum));
    line(b, "coflow_decision_latency_seconds_count", latencyCount);
    help(b, "coflow_active_coflows", "gauge", "Placed stages still fetching.");
    line(b, "coflow_active_coflows", status.coflows().size());
    help(b, "coflow_applications", "gauge", "Registered applications.");
    line(b, "coflow_applications", status.applications().size());
    double remaining = 0;
    double delivered = 0;
    for (Status.CoflowView c : status.coflows()) {
      remaining += c.remainingBytes();
      delivered += c.networkBytes() - c.remainingBytes();
    }
    help(b, "coflow_shuffle_bytes", "gauge", "Network bytes of active coflows, by state.");
    b.append(
        String.format(Locale.ROOT, "coflow_shuffle_bytes{state=\"remaining\"} %.0f%n", remaining));
    b.append(
        String.format(Locale.ROOT, "coflow_shuffle_bytes{state=\"delivered\"} %.0f%n", delivered));
    return b.toString();
  }

  private static void help(StringBuilder b, String name, String type, String text) {
    b.append("# HELP ").append(name).append(' ').append(text).append('\n');
    b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void line(StringBuilder b, String series, long value) {
    b.append(series).append(' ').append(value).append('\n');
  }
}
