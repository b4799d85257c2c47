/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.coflowshuffle.config.ConfigKey;
import org.coflowshuffle.config.SchedulingKeys;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * The standalone coordinator's settings ({@code coflow.coordinator.*}), each key declared once in
 * {@link #KEYS}; {@code docs/configuration.md} is generated from them.
 *
 * @param port where the protocol is served (0: any free port)
 * @param httpPort where {@code /status}, {@code /metrics} and the status page are served
 * @param bind the address the protocol listens on
 * @param secrets the secrets clients prove in their hello: shared and per principal
 * @param httpBind the address the HTTP pages listen on
 * @param httpToken the bearer token the HTTP pages require; null for none
 * @param scheme the scheme that decides placements and rates
 * @param options the scheme's options
 * @param hostBytesPerSecond link speed of hosts not in {@code hostBandwidth}, each way
 * @param hostBandwidth link speeds by host name, each way
 * @param maxFrameBytes largest frame accepted
 * @param clientTimeoutSeconds a connection silent this long is closed and its application dropped
 * @param minAvailableFraction the least share of a link the algorithms see, however much other
 *     traffic the host reports
 * @param ioThreads Netty event-loop threads
 * @param rateTolerance the least relative change of a flow's rate that is pushed to its fetcher
 * @param maxEntriesPerClient most entries of state the service keeps for one connection
 */
public record CoordinatorConf(
    int port,
    int httpPort,
    InetAddress bind,
    Secrets secrets,
    InetAddress httpBind,
    String httpToken,
    String scheme,
    SchemeOptions options,
    double hostBytesPerSecond,
    Map<String, Double> hostBandwidth,
    int maxFrameBytes,
    double clientTimeoutSeconds,
    double minAvailableFraction,
    int ioThreads,
    double rateTolerance,
    int maxEntriesPerClient) {

  static final String SINCE = "0.1.0";

  private static final String PREFIX = "coflow.coordinator.";

  public static final ConfigKey<Integer> PORT =
      ConfigKey.integer(
          "coflow.coordinator.port", 7390, 0, 65535, SINCE, "Port of the coordinator protocol.");
  public static final ConfigKey<Integer> HTTP_PORT =
      ConfigKey.integer(
          "coflow.coordinator.httpPort",
          7391,
          0,
          65535,
          SINCE,
          "Port of `/status` (JSON), `/metrics` (Prometheus text) and `/` (status page).");
  public static final ConfigKey<String> SECRET =
      ConfigKey.of(
          "coflow.coordinator.secret",
          "string",
          null,
          SINCE,
          "Shared secret a client that names no principal proves in its hello (HMAC-SHA256 over a"
              + " per-connection nonce; the secret never travels), and with which every later"
              + " frame is sealed. Spark applications prove `spark.coflow.coordinator.secret`,"
              + " else `spark.authenticate.secret`. Unset, with no `secretsFile`: no"
              + " authentication, and the coordinator listens on loopback only unless"
              + " `openWithoutSecret` is true.",
          s -> s);
  public static final ConfigKey<String> SECRETS_FILE =
      ConfigKey.of(
          "coflow.coordinator.secretsFile",
          "path",
          null,
          SINCE,
          "File of `PRINCIPAL=SECRET` lines (`#` comments): a client whose hello names a principal"
              + " (Spark: `spark.coflow.coordinator.principal`) proves that principal's secret, so"
              + " that each team or application can have its own. Read at start; keep it"
              + " readable by the coordinator's user only.",
          String::trim);
  public static final ConfigKey<String> BIND =
      ConfigKey.of(
          "coflow.coordinator.bindAddress",
          "string",
          null,
          SINCE,
          "Address to listen on. Unset: all interfaces when a secret or `secretsFile` is set, else"
              + " loopback.",
          String::trim);
  public static final ConfigKey<String> HTTP_BIND =
      ConfigKey.of(
          "coflow.coordinator.httpBindAddress",
          "string",
          null,
          SINCE,
          "Address of `/status`, `/metrics` and the status page. Unset: loopback, whatever"
              + " `bindAddress` is; they name applications and executors, so expose them on"
              + " purpose, with `httpToken`.",
          String::trim);
  public static final ConfigKey<String> HTTP_TOKEN =
      ConfigKey.of(
          "coflow.coordinator.httpToken",
          "string",
          null,
          SINCE,
          "When set, the HTTP pages answer only requests that carry `Authorization: Bearer"
              + " <token>`; others get 401.",
          s -> s);
  public static final ConfigKey<Boolean> OPEN_WITHOUT_SECRET =
      ConfigKey.bool(
          "coflow.coordinator.openWithoutSecret",
          false,
          SINCE,
          "Allow a non-loopback `bindAddress` without a secret: anyone who reaches the port can"
              + " steer placements and rates.");
  public static final ConfigKey<String> SCHEME =
      ConfigKey.of(
          "coflow.coordinator.scheme",
          "string",
          "rpc",
          SINCE,
          "Scheme deciding placements and rates: " + String.join(", ", Schemes.names()) + ".",
          Schemes::require);
  public static final ConfigKey<Double> STARVATION_THRESHOLD =
      SchedulingKeys.starvationThreshold(PREFIX);
  public static final ConfigKey<Boolean> WORK_CONSERVING = SchedulingKeys.workConserving(PREFIX);
  public static final ConfigKey<Long> HOST_BANDWIDTH_DEFAULT =
      SchedulingKeys.defaultBandwidth(PREFIX);
  public static final ConfigKey<Map<String, Double>> HOST_BANDWIDTH =
      SchedulingKeys.hostBandwidth(PREFIX);
  public static final ConfigKey<Long> MAX_FRAME =
      ConfigKey.size(
          "coflow.coordinator.maxFrameBytes",
          "1m",
          SINCE,
          "Largest frame accepted; a larger one is answered with OVERSIZE and the connection"
              + " closed.");
  public static final ConfigKey<Double> CLIENT_TIMEOUT =
      ConfigKey.seconds(
          "coflow.coordinator.clientTimeout",
          "30s",
          SINCE,
          "A connection that sends nothing (not even a ping) this long is closed; the"
              + " applications it registered are dropped.");
  public static final ConfigKey<Double> MIN_AVAILABLE =
      ConfigKey.of(
          "coflow.coordinator.minAvailableFraction",
          "double",
          "0.1",
          SINCE,
          "Least share of a host's link the algorithms assume is free, however much other traffic"
              + " its bandwidth reports measure (TCP still gets coflows a share).",
          s -> {
            double v = Double.parseDouble(s.trim());
            if (!(v > 0 && v <= 1)) {
              throw new IllegalArgumentException("must be in (0, 1]");
            }
            return v;
          });
  public static final ConfigKey<Integer> IO_THREADS =
      ConfigKey.integer(
          "coflow.coordinator.ioThreads",
          2,
          1,
          256,
          SINCE,
          "Netty threads reading and writing frames (decisions run on one thread of their own).");

  public static final ConfigKey<Double> RATE_TOLERANCE =
      ConfigKey.of(
          "coflow.coordinator.rateTolerance",
          "double",
          "0.05",
          SINCE,
          "A new rate reaches a fetcher when it differs from the one it has by more than this"
              + " share (or a flow starts or stops waiting); 0 pushes every change.",
          s -> {
            double v = Double.parseDouble(s.trim());
            if (!(v >= 0 && v < 1)) {
              throw new IllegalArgumentException("must be in [0, 1)");
            }
            return v;
          });

  public static final ConfigKey<Integer> MAX_ENTRIES_PER_CLIENT =
      ConfigKey.integer(
          "coflow.coordinator.maxEntriesPerClient",
          20_000_000,
          1,
          Integer.MAX_VALUE,
          SINCE,
          "Most state the service keeps for one connection, in entries: one per application,"
              + " shuffle and executor it registered, and per shuffle one per reducer and executor"
              + " its map outputs and rate requests name (a size or a subscription each, ~8 to"
              + " 100 bytes). A message past it is refused with LIMIT and the connection closed;"
              + " that driver's jobs then run with Spark's placement and unpaced fetches.");

  /** Every key, in the order the reference lists them. */
  public static final List<ConfigKey<?>> KEYS =
      List.of(
          PORT,
          HTTP_PORT,
          SECRET,
          SECRETS_FILE,
          BIND,
          HTTP_BIND,
          HTTP_TOKEN,
          OPEN_WITHOUT_SECRET,
          SCHEME,
          STARVATION_THRESHOLD,
          WORK_CONSERVING,
          HOST_BANDWIDTH_DEFAULT,
          HOST_BANDWIDTH,
          MAX_FRAME,
          CLIENT_TIMEOUT,
          MIN_AVAILABLE,
          IO_THREADS,
          RATE_TOLERANCE,
          MAX_ENTRIES_PER_CLIENT);

  public CoordinatorConf {
    hostBandwidth = Map.copyOf(hostBandwidth);
  }

  /** The scheduling core these settings describe: scheme, options and link speeds. */
  public LiveCoordinator newLiveCoordinator(DoubleSupplier clock) {
    return new LiveCoordinator(scheme, options, hostBytesPerSecond, hostBandwidth, clock);
  }

  /**
   * Reads the settings; keys not given take their defaults.
   *
   * @throws IllegalArgumentException naming the key when a value is invalid, or when the
   *     coordinator would listen beyond loopback without a secret and that was not allowed
   */
  public static CoordinatorConf from(Map<String, String> settings) {
    for (String key : settings.keySet()) {
      if (key.startsWith("coflow.coordinator.")
          && KEYS.stream().noneMatch(k -> k.name().equals(key))) {
        throw new IllegalArgumentException("unknown setting " + key);
      }
    }
    String secret = SECRET.read(settings);
    if (secret != null && secret.isEmpty()) {
      throw new IllegalArgumentException(SECRET.name() + " is empty; unset it or give a secret");
    }
    String file = SECRETS_FILE.read(settings);
    Secrets secrets =
        new Secrets(
            secret,
            file == null || file.isEmpty() ? Map.of() : Secrets.read(java.nio.file.Path.of(file)));
    InetAddress bind = bindAddress(settings, secrets);
    if (!secrets.any() && !bind.isLoopbackAddress() && !OPEN_WITHOUT_SECRET.read(settings)) {
      throw new IllegalArgumentException(
          BIND.name()
              + "="
              + bind.getHostAddress()
              + " without "
              + SECRET.name()
              + ": set a secret, or "
              + OPEN_WITHOUT_SECRET.name()
              + "=true to serve anyone who reaches the port");
    }
    String httpToken = HTTP_TOKEN.read(settings);
    if (httpToken != null && httpToken.isEmpty()) {
      throw new IllegalArgumentException(HTTP_TOKEN.name() + " is empty; unset it or give a token");
    }
    long maxFrame = MAX_FRAME.read(settings);
    if (maxFrame > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(MAX_FRAME.name() + " must be under 2g");
    }
    return new CoordinatorConf(
        PORT.read(settings),
        HTTP_PORT.read(settings),
        bind,
        secrets,
        address(HTTP_BIND, settings),
        httpToken,
        SCHEME.read(settings),
        new SchemeOptions(1L, STARVATION_THRESHOLD.read(settings), WORK_CONSERVING.read(settings)),
        HOST_BANDWIDTH_DEFAULT.read(settings),
        HOST_BANDWIDTH.read(settings),
        (int) maxFrame,
        CLIENT_TIMEOUT.read(settings),
        MIN_AVAILABLE.read(settings),
        IO_THREADS.read(settings),
        RATE_TOLERANCE.read(settings),
        MAX_ENTRIES_PER_CLIENT.read(settings));
  }

  /** The defaults, with the given ports (tests and benchmarks use 0 for free ports). */
  public static CoordinatorConf defaults(int port, int httpPort) {
    return from(
        Map.of(PORT.name(), String.valueOf(port), HTTP_PORT.name(), String.valueOf(httpPort)));
  }

  /** The address {@code key} gives; loopback when it is unset. */
  private static InetAddress address(ConfigKey<String> key, Map<String, String> settings) {
    String given = key.read(settings);
    try {
      return given == null || given.isEmpty()
          ? InetAddress.getLoopbackAddress()
          : InetAddress.getByName(given);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(key.name() + "=" + given + ": unknown host", e);
    }
  }

  private static InetAddress bindAddress(Map<String, String> settings, Secrets secrets) {
    String given = BIND.read(settings);
    try {
      if (given == null || given.isEmpty()) {
        return secrets.any() ? InetAddress.getByName("0.0.0.0") : InetAddress.getLoopbackAddress();
      }
      return InetAddress.getByName(given);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(BIND.name() + "=" + given + ": unknown host", e);
    }
  }
}
