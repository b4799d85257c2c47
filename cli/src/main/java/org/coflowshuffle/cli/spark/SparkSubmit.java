/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code spark-submit} of the stock distribution, the way a user runs it, with its whole output
 * in a log file.
 *
 * @param sparkHome the distribution
 * @param master e.g. {@code local-cluster[4,1,1024]}
 * @param mainClass the application's main class
 * @param appJar the application's JAR
 * @param jars extra JARs ({@code --jars}), e.g. the plugin's
 * @param conf {@code --conf} settings
 * @param env environment on top of this process's, e.g. {@code HADOOP_CONF_DIR} for YARN
 */
public record SparkSubmit(
    Path sparkHome,
    String master,
    String mainClass,
    Path appJar,
    List<Path> jars,
    Map<String, String> conf,
    Map<String, String> env) {

  /**
   * Settings every run on {@code master} gets: no web UI, Kryo (as production jobs use), and in
   * {@code local-cluster} mode, where every executor stands for a machine of its own, shuffle
   * blocks of other executors fetched over the network as they would be between machines (else
   * Spark reads them straight from disk and no fetch crosses a link). Elsewhere executors on one
   * machine read each other's blocks from disk, Spark's default, as the coordinator's model has it.
   */
  static Map<String, String> baseConf(String master) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    if (master.startsWith("local-cluster")) {
      conf.put("spark.shuffle.readHostLocalDisk", "false");
    }
    return conf;
  }

  /**
   * Runs the application with {@code args}, its output to {@code log}.
   *
   * @return the exit status of spark-submit
   */
  public int run(List<String> args, Path log) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(sparkHome.resolve("bin/spark-submit").toString());
    cmd.addAll(List.of("--master", master, "--driver-memory", "2g", "--class", mainClass));
    if (!jars.isEmpty()) {
      cmd.add("--jars");
      cmd.add(String.join(",", jars.stream().map(Path::toString).toList()));
    }
    for (Map.Entry<String, String> e : conf.entrySet()) {
      cmd.add("--conf");
      cmd.add(e.getKey() + "=" + e.getValue());
    }
    cmd.add(appJar.toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().put("SPARK_HOME", sparkHome.toString());
    pb.environment().putAll(env);
    return pb.start().waitFor();
  }
}
