/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster on the testbed: the master in the machine's own namespace (on the
 * bridge's address, where the driver runs too), one worker in each host's namespace, bound to that
 * host's address, so that every shuffle byte between executors crosses the shaped links.
 */
public final class TestbedSpark implements AutoCloseable {

  private static final int PORT = 7077;

  private final List<Process> processes = new ArrayList<>();
  private final String gateway;

  private TestbedSpark(String gateway) {
    this.gateway = gateway;
  }

  /**
   * Starts the master and one worker per host, and waits until every worker registered.
   *
   * @param logs folder for the daemons' logs and the workers' directories
   * @throws IOException when a daemon does not come up within a minute (its log is named)
   */
  public static TestbedSpark start(
      Path sparkHome, String gateway, List<HostLink> hosts, int cores, int memoryMb, Path logs)
      throws IOException, InterruptedException {
    TestbedSpark s = new TestbedSpark(gateway);
    Files.createDirectories(logs);
    String spark = sparkHome.resolve("bin/spark-class").toString();
    Path masterLog = logs.resolve("master.log");
    try {
      s.launch(
          List.of(
              spark,
              "org.apache.spark.deploy.master.Master",
              "--host",
              gateway,
              "--port",
              Integer.toString(PORT),
              "--webui-port",
              "18080"),
          Map.of("SPARK_HOME", sparkHome.toString()),
          masterLog);
      for (HostLink h : hosts) {
        Path dir = logs.resolve(h.name());
        Files.createDirectories(dir);
        s.launch(
            List.of(
                "ip",
                "netns",
                "exec",
                h.namespace(),
                spark,
                "org.apache.spark.deploy.worker.Worker",
                "--host",
                h.address(),
                "--cores",
                Integer.toString(cores),
                "--memory",
                memoryMb + "m",
                "--webui-port",
                "18081",
                "--work-dir",
                dir.toString(),
                s.masterUrl()),
            Map.of(
                "SPARK_HOME", sparkHome.toString(),
                "SPARK_LOCAL_IP", h.address(),
                "SPARK_LOCAL_HOSTNAME", h.address()),
            logs.resolve("worker-" + h.name() + ".log"));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (registered(masterLog) < hosts.size()) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              registered(masterLog) + " of " + hosts.size() + " workers registered; see " + logs);
        }
        Thread.sleep(500);
      }
      return s;
    } catch (IOException | InterruptedException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private static long registered(Path masterLog) throws IOException {
    return Files.exists(masterLog)
        ? Files.readAllLines(masterLog).stream()
            .filter(l -> l.contains("Registering worker"))
            .count()
        : 0;
  }

  private void launch(List<String> cmd, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().putAll(env);
    processes.add(pb.start());
  }

  public String masterUrl() {
    return "spark://" + gateway + ":" + PORT;
  }

  /** Settings a job needs on this cluster: the driver on the bridge's address. */
  public Map<String, String> driverConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.driver.host", gateway);
    conf.put("spark.driver.bindAddress", gateway);
    return conf;
  }

  /** Share of a shaped link's rate that TCP payload gets (headers take the rest; testbed check). */
  static final double GOODPUT = 0.95;

  /** A host's link in and out as TCP payload gets it ({@link #GOODPUT}), bytes per second. */
  public static double[] goodput(HostLink h) {
    return new double[] {h.inMbit() * 125_000.0 * GOODPUT, h.outMbit() * 125_000.0 * GOODPUT};
  }

  /**
   * The plugin's view of the links: {@code spark.coflow.hostBandwidth} with each host's goodput,
   * under its address and its name (executors go by either, depending on the cluster manager), and
   * {@code spark.coflow.defaultBandwidth} at the fastest (bytes per second: a host's rate in Mbit/s
   * times 125,000 times {@link #GOODPUT}). Telling the plugin the raw rate would make its flows ask
   * for 4% more than the link carries, and the token buckets would drop the excess.
   */
  public static Map<String, String> linkConf(List<HostLink> hosts) {
    StringBuilder list = new StringBuilder();
    long fastest = 0;
    for (HostLink h : hosts) {
      double[] io = goodput(h);
      long bytes = (long) Math.min(io[0], io[1]);
      fastest = Math.max(fastest, bytes);
      for (String key : List.of(h.address(), h.name())) {
        list.append(list.length() == 0 ? "" : ",").append(key).append('=').append(bytes);
      }
    }
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.coflow.defaultBandwidth", Long.toString(fastest));
    conf.put("spark.coflow.hostBandwidth", list.toString());
    return conf;
  }

  /** Stops every daemon (the workers' executors with them). */
  @Override
  public void close() {
    Daemons.stop(processes, 10);
  }
}
