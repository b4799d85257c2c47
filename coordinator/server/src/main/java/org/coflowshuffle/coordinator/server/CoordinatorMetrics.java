/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.MessageType;

/**
 * Counters of the service, in a registry of the Prometheus Java client that {@code /metrics}
 * renders in Prometheus' text format. Thread-safe: network threads count frames, the scheduling
 * thread counts decisions.
 */
final class CoordinatorMetrics {

  /** Upper bounds of the decision latency buckets, seconds. */
  private static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5
  };

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter frames;
  private final Counter errors;
  private final Counter connections;
  private final AtomicLong open = new AtomicLong();
  private final LongAdder ratesPushed = new LongAdder();
  private final Histogram latency;
  private long latencyCount;

  /** The latest latencies, seconds, for benchmarks' percentiles (a ring of {@link #SAMPLES}). */
  private final double[] samples = new double[SAMPLES];

  private static final int SAMPLES = 1 << 16;

  /** The status the gauges show, while {@link #prometheus} renders them. */
  private Status shown;

  CoordinatorMetrics() {
    frames =
        Counter.builder()
            .name("coflow_frames_received_total")
            .help("Frames received, by message type.")
            .labelNames("type")
            .register(registry);
    for (MessageType t : MessageType.values()) {
      frames.initLabelValues(t.name());
    }
    errors =
        Counter.builder()
            .name("coflow_frame_errors_total")
            .help("Frames refused, by error code.")
            .labelNames("code")
            .register(registry);
    for (ErrorCode c : ErrorCode.values()) {
      errors.initLabelValues(c.name());
    }
    connections =
        Counter.builder()
            .name("coflow_connections_total")
            .help("Connections accepted.")
            .register(registry);
    GaugeWithCallback.builder()
        .name("coflow_connections_open")
        .help("Connections open now.")
        .callback(cb -> cb.call(open.get()))
        .register(registry);
    CounterWithCallback.builder()
        .name("coflow_decisions_total")
        .help("Placements and rate decisions sent.")
        .callback(cb -> cb.call(decisions()))
        .register(registry);
    CounterWithCallback.builder()
        .name("coflow_flow_rates_pushed_total")
        .help("Flow rates sent to fetchers.")
        .callback(cb -> cb.call(ratesPushed.sum()))
        .register(registry);
    latency =
        Histogram.builder()
            .name("coflow_decision_latency_seconds")
            .help("From the first event a decision answers until it is sent.")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
    GaugeWithCallback.builder()
        .name("coflow_active_coflows")
        .help("Placed stages still fetching.")
        .callback(cb -> cb.call(shown.coflows().size()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("coflow_applications")
        .help("Registered applications.")
        .callback(cb -> cb.call(shown.applications().size()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("coflow_shuffle_bytes")
        .help("Network bytes of active coflows, by state.")
        .labelNames("state")
        .callback(
            cb -> {
              double remaining = 0;
              double delivered = 0;
              for (Status.CoflowView c : shown.coflows()) {
                remaining += c.remainingBytes();
                delivered += c.networkBytes() - c.remainingBytes();
              }
              cb.call(remaining, "remaining");
              cb.call(delivered, "delivered");
            })
        .register(registry);
  }

  void frame(MessageType t) {
    frames.labelValues(t.name()).inc();
  }

  void error(ErrorCode c) {
    errors.labelValues(c.name()).inc();
  }

  void opened() {
    connections.inc();
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
    latency.observe(seconds);
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
    shown = status;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    } finally {
      shown = null;
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
