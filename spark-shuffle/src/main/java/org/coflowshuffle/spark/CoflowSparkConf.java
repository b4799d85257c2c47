/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.coflowshuffle.config.ConfigKey;
import org.coflowshuffle.config.SchedulingKeys;
import org.coflowshuffle.coordinator.client.Credentials;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;
import scala.Tuple2;

/**
 * Every {@code spark.coflow.*} setting of the plugin ({@link #KEYS}, from which the Spark section
 * of docs/configuration.md is generated), read once from the application's configuration. A bad
 * value fails plugin start-up with one line naming the key; Spark then places reducers itself.
 *
 * @param defaultBandwidth bytes per second; NaN (unset) for each machine's NIC speed
 * @param starvationSeconds seconds
 * @param coordinator a standalone coordinator, or null for the embedded one
 * @param coordinatorCredentials what the driver proves to a standalone coordinator
 */
public record CoflowSparkConf(
    String scheme,
    double defaultBandwidth,
    double starvationSeconds,
    boolean placement,
    boolean newExecutors,
    boolean measureLinks,
    boolean workConserving,
    Map<String, Double> hostBandwidth,
    int shuffleServicePort,
    InetSocketAddress coordinator,
    Credentials coordinatorCredentials) {

  static final String SINCE = "0.1.0";

  private static final String PREFIX = "spark.coflow.";

  public static final ConfigKey<String> SCHEME =
      ConfigKey.of(
          "spark.coflow.scheme",
          "string",
          "rpc",
          SINCE,
          "The scheme of the embedded coordinator: " + String.join(", ", Schemes.names()) + ".",
          Schemes::require);
  public static final ConfigKey<Long> DEFAULT_BANDWIDTH = SchedulingKeys.measuredBandwidth(PREFIX);
  public static final ConfigKey<Double> STARVATION_THRESHOLD =
      SchedulingKeys.starvationThreshold(PREFIX);
  public static final ConfigKey<Boolean> PLACEMENT =
      ConfigKey.bool(
          "spark.coflow.placement.enabled",
          true,
          SINCE,
          "Steer reduce tasks to the executors the coordinator chose; `false` leaves them to Spark,"
              + " whose flows the coordinator still paces (Varys' rates without placement) unless"
              + " `spark.coflow.fetch.paced` is `false`. In local mode (one executor: nothing to place) only when set to"
              + " `true`.");
  public static final ConfigKey<Boolean> NEW_EXECUTORS =
      ConfigKey.bool(
          "spark.coflow.placement.newExecutors",
          true,
          SINCE,
          "With dynamic allocation on YARN, also place reducers on NodeManagers that have room for"
              + " one more executor and none of this application's yet, up to"
              + " `spark.dynamicAllocation.maxExecutors`: Spark then asks YARN for containers on"
              + " those hosts (docs/yarn.md).");
  public static final ConfigKey<Boolean> MEASURE_LINKS =
      ConfigKey.bool(
          "spark.coflow.links.measured",
          false,
          SINCE,
          "Measure the bandwidth each machine's link leaves for shuffles, at most its configured"
              + " speed or, with none, its NIC's: from the byte counts of the interface each"
              + " executor's address is on, set against what the shuffle flows delivered, less"
              + " what other traffic takes (docs/spark.md). Off, a machine's link is its"
              + " configured speed, else its NIC's.");
  public static final ConfigKey<Boolean> WORK_CONSERVING = SchedulingKeys.workConserving(PREFIX);
  public static final ConfigKey<Map<String, Double>> HOST_BANDWIDTH =
      SchedulingKeys.hostBandwidth(PREFIX);
  public static final ConfigKey<Boolean> PACED_FETCH =
      ConfigKey.bool(
          "spark.coflow.fetch.paced",
          true,
          SINCE,
          "Fetch remote shuffle blocks through the paced transport at the coordinator's rates"
              + " (read by each executor at start).");
  public static final ConfigKey<Long> PREFETCH_SIZE =
      ConfigKey.of(
          "spark.coflow.prefetch.maxSize",
          "size",
          "48m",
          SINCE,
          "Bytes an executor may hold of shuffle blocks it fetched, paced, for reduce tasks the"
              + " coordinator placed on it before those tasks started (a task may wait for a core,"
              + " its map output locations and broadcasts first); a reducer whose remote blocks"
              + " would take it past this is fetched by its task as usual. Only for executors that"
              + " are alone on their machine, reduce tasks of one partition each and the paced"
              + " transport; `0` turns it off.",
          s -> s.trim().equals("0") ? 0L : ConfigKey.bytes(s));
  public static final ConfigKey<Integer> SHUFFLE_SERVICE_PORT =
      ConfigKey.integer(
          "spark.coflow.shuffleService.port",
          0,
          0,
          65535,
          SINCE,
          "With `spark.shuffle.service.enabled`, the paced port of the coflow NodeManager service"
              + " on every node (its `coflow.shuffle.service.port`, 7338); 0 leaves fetches from an"
              + " external shuffle service unpaced.");
  public static final ConfigKey<InetSocketAddress> COORDINATOR =
      ConfigKey.of(
          "spark.coflow.coordinator",
          "host:port",
          null,
          SINCE,
          "A standalone coordinator (`bin/coflow coordinator`) that schedules this application's"
              + " shuffles with those of every other application using it; unset embeds one in the"
              + " driver. The driver proves `spark.coflow.coordinator.secret` (else"
              + " `spark.authenticate.secret`) when set, and refuses a coordinator that cannot"
              + " prove it back. The coordinator's own settings (`coflow.coordinator.scheme`, link speeds, starvation"
              + " threshold, work conservation) then replace this application's. Unreachable:"
              + " Spark's placement, unpaced, until it is back.",
          CoflowSparkConf::hostPort);
  public static final ConfigKey<String> COORDINATOR_PRINCIPAL =
      ConfigKey.of(
          "spark.coflow.coordinator.principal",
          "string",
          null,
          SINCE,
          "The principal the standalone coordinator knows this application's secret under (its"
              + " `coflow.coordinator.secretsFile`); unset: its shared `coflow.coordinator.secret`.",
          String::trim);
  public static final ConfigKey<String> COORDINATOR_SECRET =
      ConfigKey.of(
          "spark.coflow.coordinator.secret",
          "string",
          null,
          SINCE,
          "The secret the driver proves to the standalone coordinator; unset:"
              + " `spark.authenticate.secret`. Spark redacts it from its UI and logs.",
          s -> s);

  /** Every key, in the order the reference lists them. */
  public static final List<ConfigKey<?>> KEYS =
      List.of(
          SCHEME,
          DEFAULT_BANDWIDTH,
          STARVATION_THRESHOLD,
          PLACEMENT,
          NEW_EXECUTORS,
          MEASURE_LINKS,
          WORK_CONSERVING,
          HOST_BANDWIDTH,
          PACED_FETCH,
          PREFETCH_SIZE,
          SHUFFLE_SERVICE_PORT,
          COORDINATOR,
          COORDINATOR_PRINCIPAL,
          COORDINATOR_SECRET);

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the key and its value when one is invalid, or an
   *     unknown {@code spark.coflow.*} key (a typo would otherwise be ignored silently)
   */
  public static CoflowSparkConf from(SparkConf conf) {
    Map<String, String> settings = settings(conf);
    String secret = COORDINATOR_SECRET.read(settings);
    if (secret == null) {
      secret = conf.get("spark.authenticate.secret", null);
    }
    String principal = COORDINATOR_PRINCIPAL.read(settings);
    if (principal != null && secret == null) {
      throw new IllegalArgumentException(
          COORDINATOR_PRINCIPAL.name()
              + "="
              + principal
              + " without a secret: set "
              + COORDINATOR_SECRET.name());
    }
    return new CoflowSparkConf(
        SCHEME.read(settings),
        measured(DEFAULT_BANDWIDTH.read(settings)),
        STARVATION_THRESHOLD.read(settings),
        PLACEMENT.read(settings),
        NEW_EXECUTORS.read(settings),
        MEASURE_LINKS.read(settings),
        WORK_CONSERVING.read(settings),
        HOST_BANDWIDTH.read(settings),
        SHUFFLE_SERVICE_PORT.read(settings),
        COORDINATOR.read(settings),
        secret == null ? Credentials.NONE : new Credentials(principal, secret));
  }

  private static double measured(Long bytesPerSecond) {
    return bytesPerSecond == null ? Double.NaN : bytesPerSecond;
  }

  /**
   * The application's {@code spark.coflow.*} settings, every key checked to be one of {@link
   * #KEYS}.
   */
  static Map<String, String> settings(SparkConf conf) {
    Map<String, String> settings = new HashMap<>();
    for (Tuple2<String, String> kv : conf.getAllWithPrefix("spark.coflow.")) {
      String key = "spark.coflow." + kv._1();
      if (KEYS.stream().noneMatch(k -> k.name().equals(key))) {
        throw new IllegalArgumentException("unknown setting " + key);
      }
      settings.put(key, kv._2());
    }
    return settings;
  }

  /** {@code spark.coflow.fetch.paced} alone, as executors read it. */
  public static boolean pacedFetch(SparkConf conf) {
    return alone(PACED_FETCH, conf);
  }

  /** {@code spark.coflow.prefetch.maxSize} alone, as executors read it. */
  public static long prefetchSize(SparkConf conf) {
    return alone(PREFETCH_SIZE, conf);
  }

  /** {@code spark.coflow.links.measured} alone, as executors read it. */
  public static boolean measureLinks(SparkConf conf) {
    return alone(MEASURE_LINKS, conf);
  }

  /**
   * {@code spark.coflow.shuffleService.port} alone, as executors read it (they need no other
   * setting).
   *
   * @throws IllegalArgumentException naming the key when it is not a port
   */
  public static int shuffleServicePort(SparkConf conf) {
    return alone(SHUFFLE_SERVICE_PORT, conf);
  }

  private static <T> T alone(ConfigKey<T> key, SparkConf conf) {
    return key.read(
        conf.contains(key.name()) ? Map.of(key.name(), conf.get(key.name())) : Map.of());
  }

  /**
   * Whether Spark runs this application's shuffles push-based, by Spark's own rule ({@code
   * Utils.isPushBasedShuffleEnabled}: asked for with {@code spark.shuffle.push.enabled}, on YARN
   * with the external shuffle service, a serializer that can relocate its output, no I/O
   * encryption); where that method is missing, asked for on YARN with the external shuffle service.
   * Then reducers go where Spark merged their blocks and read merged chunks, which the plugin
   * neither places nor paces: it leaves such an application to Spark.
   */
  public static boolean pushBasedShuffle(SparkConf conf, boolean driver) {
    if (!conf.getBoolean("spark.shuffle.push.enabled", false)) {
      return false;
    }
    try {
      return (Boolean)
          Class.forName("org.apache.spark.util.Utils")
              .getMethod("isPushBasedShuffleEnabled", SparkConf.class, boolean.class, boolean.class)
              .invoke(null, conf, driver, true);
    } catch (ReflectiveOperationException | LinkageError e) {
      return conf.get("spark.master", "").equals("yarn")
          && conf.getBoolean("spark.shuffle.service.enabled", false);
    }
  }

  /**
   * The setting that secures Spark's block transfers in a way the paced transport cannot follow,
   * when it is on in {@code conf}: RPC TLS ({@code spark.ssl.rpc.enabled}, which inherits {@code
   * spark.ssl.enabled}); null when there is none. The paced transport authenticates and encrypts as
   * Spark does ({@code spark.authenticate}, {@code spark.network.crypto.*}, SASL), but does not
   * speak TLS: with it on, executors leave every fetch to Spark's own transport.
   */
  public static String unsupportedSecurity(SparkConf conf) {
    boolean rpcTls =
        conf.getBoolean("spark.ssl.rpc.enabled", conf.getBoolean("spark.ssl.enabled", false));
    return rpcTls
        ? (conf.contains("spark.ssl.rpc.enabled") ? "spark.ssl.rpc.enabled" : "spark.ssl.enabled")
        : null;
  }

  private static InetSocketAddress hostPort(String value) {
    String v = value.trim();
    int colon = v.lastIndexOf(':');
    int port = -1;
    if (colon > 0) {
      try {
        port = Integer.parseInt(v.substring(colon + 1));
      } catch (NumberFormatException e) {
        port = -1;
      }
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("expected host:port");
    }
    return InetSocketAddress.createUnresolved(v.substring(0, colon), port);
  }

  /** The scheme options these settings give. */
  public SchemeOptions schemeOptions() {
    return new SchemeOptions(1L, starvationSeconds, workConserving);
  }
}
