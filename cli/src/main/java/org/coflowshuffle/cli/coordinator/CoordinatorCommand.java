/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;

/**
 * {@code coflow coordinator}: runs the standalone coordinator until the process is stopped.
 * Settings come from {@code FILE} (Java properties with the {@code coflow.coordinator.*} keys of
 * docs/configuration.md), then the options; the secret may also come from the environment variable
 * {@code COFLOW_COORDINATOR_SECRET}, so that it shows in no process list.
 */
public final class CoordinatorCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "coordinator",
              "run the standalone coordinator (protocol, /status, /metrics) until stopped")
          .value("--port", "7390", "port of the coordinator protocol (0: any free port)")
          .value("--http-port", "7391", "port of /status, /metrics and the status page")
          .value("--scheme", "rpc", "scheme deciding placements and rates")
          .value("--conf", "FILE", "Java properties with coflow.coordinator.* keys");
  private static final String PREFIX = "coflow coordinator: ";
  static final String SECRET_ENV = "COFLOW_COORDINATOR_SECRET";

  /** Released to stop; null: stop when the JVM shuts down. */
  private final CountDownLatch stop;

  private final Map<String, String> env;

  /** Runs until the JVM shuts down. */
  public CoordinatorCommand() {
    this(null, System.getenv());
  }

  /** Runs until {@code stop} is released (for tests). */
  CoordinatorCommand(CountDownLatch stop, Map<String, String> env) {
    this.stop = stop;
    this.env = env;
  }

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    CoordinatorConf conf;
    try {
      conf = CoordinatorConf.from(settings(args));
    } catch (IllegalArgumentException | IOException e) {
      err.println(PREFIX + Command.oneLine(e.getMessage()));
      return USAGE;
    }
    try (CoordinatorServer server = CoordinatorServer.start(conf)) {
      out.printf(
          "coflow coordinator: protocol on %s, status on http://%s/, scheme %s, %s%n",
          where(server.address()),
          where(server.httpAddress()),
          conf.scheme(),
          CoordinatorServer.describe(conf.secrets()));
      out.flush();
      CountDownLatch until = stop;
      if (until == null) {
        until = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(until::countDown, "coflow-stop"));
      }
      until.await();
      return 0;
    } catch (IOException e) {
      err.println(PREFIX + Command.oneLine(e.getMessage()));
      return FAILURE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** host:port, with an IPv6 host in brackets. */
  private static String where(InetSocketAddress a) {
    String host = a.getAddress().getHostAddress();
    return (a.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  private Map<String, String> settings(String[] args) throws IOException {
    Flags flags = OPTIONS.parse(args);
    Map<String, String> settings = new HashMap<>();
    if (env.get(SECRET_ENV) != null) {
      settings.put(CoordinatorConf.SECRET.name(), env.get(SECRET_ENV));
    }
    if (flags.has("--conf")) {
      Properties p = new Properties();
      try (Reader r =
          Files.newBufferedReader(Path.of(flags.string("--conf", "")), StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException e) {
        throw new IOException("cannot read --conf " + flags.string("--conf", "") + ": " + e, e);
      }
      p.stringPropertyNames().forEach(k -> settings.put(k, p.getProperty(k)));
    }
    put(flags, "--port", CoordinatorConf.PORT.name(), settings);
    put(flags, "--http-port", CoordinatorConf.HTTP_PORT.name(), settings);
    put(flags, "--scheme", CoordinatorConf.SCHEME.name(), settings);
    return settings;
  }

  private static void put(Flags flags, String option, String key, Map<String, String> settings) {
    if (flags.has(option)) {
      settings.put(key, flags.string(option, ""));
    }
  }
}
