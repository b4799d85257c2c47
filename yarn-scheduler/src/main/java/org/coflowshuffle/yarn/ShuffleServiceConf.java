package org.coflowshuffle.yarn;

import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.network.util.ConfigProvider;
import org.apache.spark.network.util.TransportConf;

/**
 * The NodeManager service's settings, read from the NodeManager's {@code yarn-site.xml}.
 *
 * @param sparkPort {@code spark.shuffle.service.port} (default 7337): where Spark's own shuffle
 *     protocol is served, so executors register their shuffle directories and fetch unpaced as with
 *     Spark's YARN shuffle service (run this service instead of that one, not beside it)
 * @param pacedPort {@code coflow.shuffle.service.port} (default 7338): where fetches are served
 *     paced; executors must be given the same value
 * @param threads {@code coflow.shuffle.service.threads} (default 2): event-loop threads sending
 *     paced blocks
 * @param stopOnFailure {@code coflow.shuffle.service.stopOnFailure} (default false): whether a
 *     failure to start fails the NodeManager; by default the NodeManager runs on without this
 *     service and its log says why in one line
 */
public record ShuffleServiceConf(int sparkPort, int pacedPort, int threads, boolean stopOnFailure) {

  public static final String SPARK_PORT = "spark.shuffle.service.port";
  public static final String PACED_PORT = "coflow.shuffle.service.port";
  public static final String THREADS = "coflow.shuffle.service.threads";
  public static final String STOP_ON_FAILURE = "coflow.shuffle.service.stopOnFailure";

  public static final int DEFAULT_SPARK_PORT = 7337;
  public static final int DEFAULT_PACED_PORT = 7338;

  public ShuffleServiceConf {
    if (sparkPort < 0 || sparkPort > 65535 || pacedPort < 0 || pacedPort > 65535) {
      throw new IllegalArgumentException(
          SPARK_PORT
              + " and "
              + PACED_PORT
              + " must be ports (0-65535), got "
              + sparkPort
              + ", "
              + pacedPort);
    }
    if (threads < 1) {
      throw new IllegalArgumentException(THREADS + " must be at least 1, got " + threads);
    }
  }

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the key when a value is invalid
   */
  public static ShuffleServiceConf from(Configuration conf) {
    try {
      return new ShuffleServiceConf(
          conf.getInt(SPARK_PORT, DEFAULT_SPARK_PORT),
          conf.getInt(PACED_PORT, DEFAULT_PACED_PORT),
          conf.getInt(THREADS, 2),
          conf.getBoolean(STOP_ON_FAILURE, false));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a port or thread count of the coflow shuffle service is not a number: " + e.getMessage(),
          e);
    }
  }

  /** Spark's transport settings ({@code spark.shuffle.io.*}, ...) taken from the same file. */
  static TransportConf transportConf(Configuration conf) {
    return new TransportConf(
        "shuffle",
        new ConfigProvider() {
          @Override
          public String get(String name) {
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
