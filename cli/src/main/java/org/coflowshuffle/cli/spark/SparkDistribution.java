/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The stock Spark distribution the commands run on: {@code $SPARK_HOME} when it holds Spark {@value
 * #VERSION}, otherwise the one inside the PyPI package {@code pyspark==}{@value #VERSION},
 * installed on first use under the project's {@code .cache/spark}.
 */
public final class SparkDistribution {

  static final String VERSION = "4.1.3";

  private SparkDistribution() {}

  /**
   * The distribution's home.
   *
   * @throws IOException when pip fails or the installed package holds no Spark
   */
  public static Path home(Path projectRoot, PrintStream err)
      throws IOException, InterruptedException {
    String env = System.getenv("SPARK_HOME");
    if (env != null && isSpark(Path.of(env), VERSION)) {
      return Path.of(env);
    }
    return release(projectRoot, VERSION, err);
  }

  /**
   * The distribution of another Spark release, from the PyPI package {@code pyspark==version},
   * installed on first use under the project's {@code .cache/spark}: for checking the plugin on the
   * releases it does not target.
   *
   * @throws IOException when pip fails or the installed package holds no Spark
   */
  public static Path release(Path projectRoot, String version, PrintStream err)
      throws IOException, InterruptedException {
    Path target = projectRoot.resolve(".cache/spark/pyspark-" + version);
    Path home = target.resolve("pyspark");
    if (isSpark(home, version)) {
      return home;
    }
    err.println(
        "coflow: installing Spark "
            + version
            + " (PyPI package pyspark=="
            + version
            + ", about 450 MB) into "
            + target);
    Process pip =
        new ProcessBuilder(
                List.of(
                    "python3",
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--no-deps",
                    "--target",
                    target.toString(),
                    "pyspark==" + version))
            .inheritIO()
            .redirectOutput(ProcessBuilder.Redirect.to(new java.io.File("/dev/null")))
            .start();
    if (pip.waitFor() != 0 || !isSpark(home, version)) {
      throw new IOException(
          "could not install pyspark=="
              + version
              + " with pip into "
              + target
              + "; install it yourself and set SPARK_HOME to its pyspark folder");
    }
    return home;
  }

  private static boolean isSpark(Path home, String version) {
    return Files.isExecutable(home.resolve("bin/spark-submit"))
        && Files.exists(home.resolve("jars/spark-core_2.13-" + version + ".jar"));
  }
}
