package org.coflowshuffle.spark;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's line to the driver plugin. It is static because Spark creates the shuffle manager
 * and the executor plugin separately and gives neither a handle on the other.
 *
 * <p>A report that cannot be delivered never fails the task: the shuffle then keeps Spark's own
 * placement, and the log says so once per shuffle.
 */
final class DriverLink {

  private static final Logger LOG = LoggerFactory.getLogger(DriverLink.class);
  private static volatile PluginContext context;
  private static final Set<Integer> warned = ConcurrentHashMap.newKeySet();

  private DriverLink() {}

  static void connect(PluginContext ctx) {
    context = ctx;
  }

  static void disconnect() {
    context = null;
  }

  /** Sends the report and waits for the driver to take it. */
  static void report(MapOutputReport report) {
    PluginContext ctx = context;
    if (ctx == null) {
      warnOnce(
          report.shuffleId(), "no driver link (spark.plugins lacks " + CoflowPlugin.NAME + ")");
      return;
    }
    try {
      ctx.ask(report);
    } catch (Exception e) {
      warnOnce(report.shuffleId(), "size report failed: " + e);
    }
  }

  private static void warnOnce(int shuffleId, String why) {
    if (warned.add(shuffleId)) {
      LOG.warn("coflow: shuffle {} keeps Spark's reducer placement: {}", shuffleId, why);
    }
  }
}
