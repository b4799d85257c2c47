package org.coflowshuffle.spark;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.network.util.JavaUtils;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * Every {@code spark.coflow.*} setting of the plugin, read once from the application's
 * configuration, with its default. A bad value fails plugin start-up with one line naming the key.
 *
 * @param scheme {@code spark.coflow.scheme}: the scheduling scheme (default {@code rpc}; also
 *     {@code rpc-faithful}, {@code neat}, {@code varys}, {@code fair})
 * @param executorBandwidth {@code spark.coflow.executorBandwidth}: bytes per second each executor
 *     can send and receive for shuffles (default {@code 125m}, one gigabit per second)
 * @param starvationSeconds {@code spark.coflow.starvationThreshold}: the paper's delta, after which
 *     a waiting shuffle is served whatever its size (default {@code 60s})
 * @param placement {@code spark.coflow.placement.enabled}: steer reduce tasks to the executors the
 *     coordinator chose (default true); off, the plugin only reports sizes
 * @param workConserving {@code spark.coflow.workConserving}: hand bandwidth the schedule leaves
 *     idle to waiting flows (default false, as the paper argues; its Fig. 8 compares both)
 * @param hostBandwidth {@code spark.coflow.hostBandwidth}: machines whose links differ from {@code
 *     executorBandwidth}, as {@code host=size,...} (e.g. {@code 10.0.0.5=62m,worker7=1g}); host
 *     names as Spark's executors report them
 * @param shuffleServicePort {@code spark.coflow.shuffleService.port}: with the external shuffle
 *     service on, the port of the coflow NodeManager service's paced server on every node (its
 *     {@code coflow.shuffle.service.port}, usually 7338); 0, the default, leaves fetches from an
 *     external shuffle service unpaced
 * @param coordinator {@code spark.coflow.coordinator}: {@code host:port} of a standalone
 *     coordinator ({@code bin/coflow coordinator}) that schedules this application's shuffles with
 *     those of every other application using it; empty, the default, embeds one in the driver. With
 *     {@code spark.authenticate.secret} set, that is the secret proven to it. When it cannot be
 *     reached, Spark places reducers and fetches unpaced until it is back
 */
public record CoflowSparkConf(
    String scheme,
    double executorBandwidth,
    double starvationSeconds,
    boolean placement,
    boolean workConserving,
    Map<String, Double> hostBandwidth,
    int shuffleServicePort,
    InetSocketAddress coordinator) {

  public static final String SCHEME = "spark.coflow.scheme";
  public static final String EXECUTOR_BANDWIDTH = "spark.coflow.executorBandwidth";
  public static final String STARVATION_THRESHOLD = "spark.coflow.starvationThreshold";
  public static final String PLACEMENT = "spark.coflow.placement.enabled";
  public static final String HOST_BANDWIDTH = "spark.coflow.hostBandwidth";
  public static final String WORK_CONSERVING = "spark.coflow.workConserving";
  public static final String SHUFFLE_SERVICE_PORT = "spark.coflow.shuffleService.port";
  public static final String COORDINATOR = "spark.coflow.coordinator";

  /**
   * {@code spark.coflow.fetch.paced}: fetch remote shuffle blocks through the paced transport, at
   * the coordinator's rates (default true); read by each executor at start-up.
   */
  public static final String PACED_FETCH = "spark.coflow.fetch.paced";

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the key and its value when one is invalid
   */
  public static CoflowSparkConf from(SparkConf conf) {
    String scheme = conf.get(SCHEME, "rpc");
    try {
      Schemes.require(scheme);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(SCHEME + ": " + e.getMessage(), e);
    }
    double bandwidth =
        positive(EXECUTOR_BANDWIDTH, () -> conf.getSizeAsBytes(EXECUTOR_BANDWIDTH, "125m"));
    double delta =
        positive(
            STARVATION_THRESHOLD, () -> conf.getTimeAsMs(STARVATION_THRESHOLD, "60s") / 1000.0);
    boolean placement = conf.getBoolean(PLACEMENT, true);
    Map<String, Double> hosts = new LinkedHashMap<>();
    String list = conf.get(HOST_BANDWIDTH, "").trim();
    for (String item : list.isEmpty() ? new String[0] : list.split(",")) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            HOST_BANDWIDTH + ": expected host=size, got \"" + item.trim() + "\"");
      }
      String host = item.substring(0, eq).trim();
      hosts.put(
          host,
          positive(
              HOST_BANDWIDTH + " of " + host,
              () -> JavaUtils.byteStringAsBytes(item.substring(eq + 1).trim())));
    }
    boolean workConserving = conf.getBoolean(WORK_CONSERVING, false);
    return new CoflowSparkConf(
        scheme,
        bandwidth,
        delta,
        placement,
        workConserving,
        Map.copyOf(hosts),
        shuffleServicePort(conf),
        coordinator(conf.get(COORDINATOR, "").trim()));
  }

  /** A standalone coordinator's address, or null for the embedded one. */
  private static InetSocketAddress coordinator(String value) {
    if (value.isEmpty()) {
      return null;
    }
    int colon = value.lastIndexOf(':');
    int port;
    try {
      port = colon > 0 ? Integer.parseInt(value.substring(colon + 1)) : -1;
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          COORDINATOR + ": expected host:port, got \"" + value + "\"");
    }
    return InetSocketAddress.createUnresolved(value.substring(0, colon), port);
  }

  /**
   * {@code spark.coflow.shuffleService.port} alone, as executors read it (they need no other
   * setting).
   *
   * @throws IllegalArgumentException naming the key when it is not a port
   */
  public static int shuffleServicePort(SparkConf conf) {
    int port;
    try {
      port = conf.getInt(SHUFFLE_SERVICE_PORT, 0);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(SHUFFLE_SERVICE_PORT + ": " + e.getMessage(), e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          SHUFFLE_SERVICE_PORT + " must be a port (0-65535), got " + port);
    }
    return port;
  }

  /** The scheme options these settings give. */
  public SchemeOptions schemeOptions() {
    return new SchemeOptions(1L, starvationSeconds, workConserving);
  }

  private static double positive(String key, java.util.function.DoubleSupplier read) {
    double v;
    try {
      v = read.getAsDouble();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
    }
    if (!(v > 0)) {
      throw new IllegalArgumentException(key + " must be > 0, got " + v);
    }
    return v;
  }
}
