/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.plugin.PluginContext;
import org.coflowshuffle.spark.CoflowPlugin;
import org.coflowshuffle.spark.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's line to the driver plugin. It is static because Spark creates the shuffle manager
 * and the executor plugin separately and gives neither a handle on the other.
 *
 * <p>Nothing here ever fails a task: a report that cannot be delivered leaves that shuffle to
 * Spark's placement, a rate that cannot be learned is no limit, and the log says so once.
 */
public final class DriverLink {

  private static final Logger LOG = LoggerFactory.getLogger(DriverLink.class);
  private static volatile PluginContext context;
  private static final Set<String> warned = ConcurrentHashMap.newKeySet();
  private static final Map<String, Optional<Messages.PacedEndpoint>> endpoints =
      new ConcurrentHashMap<>();

  private DriverLink() {}

  public static void connect(PluginContext ctx) {
    context = ctx;
  }

  public static void disconnect() {
    context = null;
    endpoints.clear();
  }

  /** Spark dropped the shuffle: the warnings about it may be logged again for a later one. */
  static void forget(int shuffleId) {
    warned.remove("shuffle " + shuffleId);
  }

  /** Sends a map task's sizes and waits for the driver to take them. */
  static void report(Messages.MapOutput report) {
    PluginContext ctx = context;
    if (ctx == null) {
      warnOnce(
          "shuffle " + report.shuffleId(),
          "coflow: shuffle "
              + report.shuffleId()
              + " keeps Spark's reducer placement: no driver link (spark.plugins lacks "
              + CoflowPlugin.NAME
              + ")");
      return;
    }
    try {
      ctx.ask(report);
    } catch (Exception e) {
      warnOnce(
          "shuffle " + report.shuffleId(),
          "coflow: shuffle "
              + report.shuffleId()
              + " keeps Spark's reducer placement: size report failed: "
              + e);
    }
  }

  /** Tells the driver where this executor's paced block server listens. */
  static boolean register(Messages.PacedEndpoint endpoint) {
    return taken(endpoint, "coflow: paced block server not registered: ");
  }

  /** Tells the driver where to send its orders ({@code DriverOrders}); false if not taken. */
  static boolean register(Messages.OrdersEndpoint endpoint) {
    return taken(endpoint, "coflow: no orders from the driver: ");
  }

  /** Whether the driver answered {@code true}; a failure is logged once, after {@code why}. */
  private static boolean taken(Object message, String why) {
    PluginContext ctx = context;
    try {
      return ctx != null && Boolean.TRUE.equals(ctx.ask(message));
    } catch (Exception e) {
      warnOnce(why, why + e);
      return false;
    }
  }

  /** The paced block server of an executor, if it has one (asked once per executor). */
  static Optional<Messages.PacedEndpoint> endpoint(String executorId) {
    PluginContext ctx = context;
    if (ctx == null) {
      return Optional.empty();
    }
    return endpoints.computeIfAbsent(
        executorId,
        id -> {
          try {
            Object reply = ctx.ask(new Messages.WhereIsPaced(id));
            return reply instanceof String s ? parse(id, s) : Optional.empty();
          } catch (Exception e) {
            warnOnce("where " + id, "coflow: no paced fetch from executor " + id + ": " + e);
            return Optional.empty();
          }
        });
  }

  /**
   * Takes note that executor {@code executorId}'s paced block server is at {@code hostPort} (as
   * {@code WhereIsPaced} answers: "" for none known), as the driver told in an order, so that
   * {@link #endpoint} need not ask.
   */
  static void pacedAt(String executorId, String hostPort) {
    parse(executorId, hostPort)
        .ifPresent(
            e ->
                endpoints.compute(
                    executorId, (id, had) -> had == null || had.isEmpty() ? Optional.of(e) : had));
  }

  /** {@code "host:port"} as an endpoint; empty for "" or anything else. */
  private static Optional<Messages.PacedEndpoint> parse(String executorId, String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Messages.PacedEndpoint(
              executorId,
              hostPort.substring(0, colon),
              Integer.parseInt(hostPort.substring(colon + 1))));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The rates for what reducers fetch of shuffles from executors (see {@link
   * Messages.RateQueries}), in one ask; no limit for any on failure.
   */
  static double[] rates(int[] shuffleIds, int[] reducers, String[] sources, long[] delivered) {
    double[] none = new double[reducers.length];
    Arrays.fill(none, Double.POSITIVE_INFINITY);
    PluginContext ctx = context;
    if (ctx == null) {
      return none;
    }
    try {
      Object reply =
          ctx.ask(
              new Messages.RateQueries(shuffleIds, reducers, sources, delivered, ctx.executorID()));
      if (!(reply instanceof double[] rates) || rates.length != reducers.length) {
        throw new IllegalStateException("unexpected reply " + reply);
      }
      for (int i = 0; i < rates.length; i++) {
        rates[i] = rates[i] >= 0 ? rates[i] : Double.POSITIVE_INFINITY;
      }
      return rates;
    } catch (Exception e) {
      warnOnce(
          "rate " + shuffleIds[0],
          "coflow: shuffle "
              + shuffleIds[0]
              + " is fetched without a rate limit: rate query failed: "
              + e);
      return none;
    }
  }

  /** Progress for the coordinator; lost reports only make its estimates coarser. */
  static void delivered(int shuffleId, int reducer, String sourceExecutor, long bytes) {
    PluginContext ctx = context;
    if (ctx != null) {
      sendOneWay(
          new Messages.Delivered(shuffleId, reducer, sourceExecutor, bytes, ctx.executorID()),
          "progress reports");
    }
  }

  /** A flow that left the paced transport, and why ({@link Messages.Unpaced}); never waits. */
  static void unpaced(int shuffleId, int reducer, String sourceExecutor, String cause) {
    ExecutorMetrics.fellBack.incrementAndGet();
    ExecutorMetrics.fellBackBy.get(cause).incrementAndGet();
    PluginContext ctx = context;
    if (ctx != null) {
      sendOneWay(
          new Messages.Unpaced(shuffleId, reducer, sourceExecutor, cause, ctx.executorID()),
          "fallback reports");
    }
  }

  /** This executor's paced total, for the driver's figure; never waits. */
  static void pacedTotal(Messages.PacedTotal t) {
    sendOneWay(t, "paced totals");
  }

  static void nicSpeed(Messages.NicSpeed n) {
    sendOneWay(n, "NIC speed");
  }

  static void interfaceBytes(Messages.InterfaceBytes b) {
    sendOneWay(b, "interface counts");
  }

  /** Sends without waiting; the first failure of each kind of {@code what} is logged once. */
  private static void sendOneWay(Object message, String what) {
    PluginContext ctx = context;
    if (ctx != null) {
      try {
        ctx.send(message);
      } catch (Exception e) {
        warnOnce(what, "coflow: " + what + " not sent to the driver: " + e);
      }
    }
  }

  static void warnOnce(String key, String line) {
    if (warned.add(key)) {
      LOG.warn(line);
    }
  }
}
