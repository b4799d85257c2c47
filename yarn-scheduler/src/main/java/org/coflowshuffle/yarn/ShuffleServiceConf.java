/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.network.shuffledb.DBBackend;
import org.apache.spark.network.util.ConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.config.ConfigKey;

/**
 * The NodeManager service's settings, read from the NodeManager's {@code yarn-site.xml}; every key
 * is declared once in {@link #KEYS}, from which the YARN section of docs/configuration.md is
 * generated.
 *
 * @param sparkPort where Spark's own shuffle protocol is served
 * @param pacedPort where fetches are served paced
 * @param threads event-loop threads sending paced blocks
 * @param stopOnFailure whether a failure to start fails the NodeManager
 * @param authenticate whether Spark's protocol authenticates each application with its secret
 * @param dbBackend the database that keeps registrations and secrets across NodeManager restarts
 */
public record ShuffleServiceConf(
    int sparkPort,
    int pacedPort,
    int threads,
    boolean stopOnFailure,
    boolean authenticate,
    DBBackend dbBackend) {

  static final String SINCE = "0.1.0";

  public static final ConfigKey<Integer> SPARK_PORT =
      ConfigKey.integer(
          "spark.shuffle.service.port",
          7337,
          0,
          65535,
          SINCE,
          "Spark's own shuffle protocol: executors register their shuffle directories here and"
              + " fetch unpaced, as with Spark's YARN shuffle service (run this service instead of"
              + " that one, not beside it).");
  public static final ConfigKey<Integer> PACED_PORT =
      ConfigKey.integer(
          "coflow.shuffle.service.port",
          7338,
          0,
          65535,
          SINCE,
          "Where the same files are served paced; applications set"
              + " `spark.coflow.shuffleService.port` to it.");
  public static final ConfigKey<Integer> THREADS =
      ConfigKey.integer(
          "coflow.shuffle.service.threads",
          2,
          1,
          256,
          SINCE,
          "Event-loop threads sending paced blocks.");
  public static final ConfigKey<Boolean> STOP_ON_FAILURE =
      ConfigKey.bool(
          "coflow.shuffle.service.stopOnFailure",
          false,
          SINCE,
          "Fail the NodeManager when this service cannot start; by default it runs on without it"
              + " and its log says why in one line.");

  public static final ConfigKey<Boolean> AUTHENTICATE =
      ConfigKey.bool(
          "spark.authenticate",
          false,
          SINCE,
          "Authenticate every connection to both ports with its application's"
              + " secret, which YARN hands the service when the application starts, as Spark's YARN"
              + " shuffle service does; the paced port too, serving an application only its own"
              + " blocks. `spark.network.crypto.enabled` here encrypts both (docs/security.md).");

  public static final ConfigKey<DBBackend> DB_BACKEND =
      ConfigKey.of(
          "spark.shuffle.service.db.backend",
          "string",
          "ROCKSDB",
          SINCE,
          "With `yarn.nodemanager.recovery.enabled`, the database (`ROCKSDB` or `LEVELDB`) in the"
              + " NodeManager's recovery directory where executors' registrations and"
              + " applications' secrets outlive a NodeManager restart, as with Spark's YARN shuffle"
              + " service: the node serves the files it served before, and no map output is"
              + " recomputed. Without recovery nothing is kept.",
          s -> DBBackend.byName(s.trim()));

  /** Every key, in the order the reference lists them. */
  public static final List<ConfigKey<?>> KEYS =
      List.of(SPARK_PORT, PACED_PORT, THREADS, STOP_ON_FAILURE, AUTHENTICATE, DB_BACKEND);

  public ShuffleServiceConf {
    SPARK_PORT.check(sparkPort);
    PACED_PORT.check(pacedPort);
    THREADS.check(threads);
  }

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the key and the value when one is invalid
   */
  public static ShuffleServiceConf from(Configuration conf) {
    Map<String, String> settings = settings(conf);
    return new ShuffleServiceConf(
        SPARK_PORT.read(settings),
        PACED_PORT.read(settings),
        THREADS.read(settings),
        STOP_ON_FAILURE.read(settings),
        AUTHENTICATE.read(settings),
        DB_BACKEND.read(settings));
  }

  /** Whether a failure to start must fail the NodeManager, read alone (other keys may be bad). */
  static boolean stopOnFailure(Configuration conf) {
    try {
      return STOP_ON_FAILURE.read(settings(conf));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static Map<String, String> settings(Configuration conf) {
    Map<String, String> settings = new HashMap<>();
    for (ConfigKey<?> k : KEYS) {
      String v = conf.get(k.name());
      if (v != null) {
        settings.put(k.name(), v);
      }
    }
    return settings;
  }

  /** Spark's transport settings ({@code spark.shuffle.io.*}, ...) taken from the same file. */
  static TransportConf transportConf(Configuration conf) {
    return transportConf(conf, 0);
  }

  /**
   * As {@link #transportConf(Configuration)}, with {@code serverThreads} event-loop threads serving
   * (0: as the file says).
   */
  static TransportConf transportConf(Configuration conf, int serverThreads) {
    String threadsKey = "spark.shuffle.io.serverThreads";
    return new TransportConf(
        "shuffle",
        new ConfigProvider() {
          @Override
          public String get(String name) {
            if (serverThreads > 0 && name.equals(threadsKey)) {
              return String.valueOf(serverThreads);
            }
            String v = conf.get(name);
            if (v == null) {
              throw new NoSuchElementException(name);
            }
            return v;
          }

          @Override
          public Iterable<Map.Entry<String, String>> getAll() {
            return conf;
          }
        });
  }
}
