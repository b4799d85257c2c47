/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Spark's History Server of the distribution the project runs ({@code bin/spark-class}), over a
 * folder of event logs, with the plugin's JAR on its class path ({@code SPARK_DAEMON_CLASSPATH}):
 * it then shows the Coflows tab of each application that had coflows, under {@code
 * /history/APP/coflows/}.
 */
public final class SparkHistoryServer implements AutoCloseable {

  private static final long START_SECONDS = 90;

  private final Process process;
  private final int port;

  private SparkHistoryServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts the server and waits until it listens.
   *
   * @param port its UI's port; 0 for any free one
   * @param log where its output goes
   * @throws IOException when it exits or does not listen within 90 s (its log says why)
   */
  public static SparkHistoryServer start(
      Path sparkHome, Path pluginJar, Path eventLogs, int port, Path log)
      throws IOException, InterruptedException {
    if (!Files.isDirectory(eventLogs)) {
      throw new IOException("no event log folder " + eventLogs);
    }
    int p = port == 0 ? freePort() : port;
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(
                    sparkHome.resolve("bin/spark-class").toString(),
                    "org.apache.spark.deploy.history.HistoryServer"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("SPARK_HOME", sparkHome.toString());
    pb.environment().put("SPARK_DAEMON_CLASSPATH", pluginJar.toAbsolutePath().toString());
    pb.environment()
        .put(
            "SPARK_HISTORY_OPTS",
            "-Dspark.history.fs.logDirectory="
                + eventLogs.toAbsolutePath().toUri()
                + " -Dspark.history.ui.port="
                + p
                + " -Dspark.history.fs.update.interval=2s");
    Process process = pb.start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException(
            "the History Server exited with status " + process.exitValue() + "; see " + log);
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("localhost", p), 500);
        return new SparkHistoryServer(process, p);
      } catch (IOException notYet) {
        Thread.sleep(500);
      }
    }
    process.destroyForcibly().waitFor();
    throw new IOException("the History Server did not listen on port " + p + "; see " + log);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Its UI, e.g. {@code http://localhost:18080}. */
  public String url() {
    return "http://localhost:" + port;
  }

  /** Waits until it is stopped, e.g. by Ctrl-C; returns its exit status. */
  public int await() throws InterruptedException {
    return process.waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
