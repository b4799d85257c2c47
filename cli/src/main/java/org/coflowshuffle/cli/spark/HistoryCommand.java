/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;

/**
 * {@code coflow history} ({@link #OPTIONS}): Spark's History Server of the distribution the project
 * runs, over a folder of event logs, with the plugin loaded: each application that had coflows
 * shows them in its Coflows tab ({@code /history/APP/coflows/}). It runs until stopped (Ctrl-C).
 */
public final class HistoryCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "history", "Spark's History Server with the Coflows tab, over a folder of event logs")
          .value("--event-log", "DIR", "the event logs (spark.eventLog.dir of the applications)")
          .value("--port", "18080", "the History Server's port");

  private static final String PREFIX = "coflow history: ";

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Path logs;
    int port;
    try {
      Flags f = OPTIONS.parse(args);
      if (!f.has("--event-log")) {
        throw new IllegalArgumentException("--event-log DIR is required");
      }
      logs = Path.of(f.string("--event-log", ""));
      port = f.positiveInt("--port", 18080);
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + Command.oneLine(e.getMessage()));
      return USAGE;
    }
    if (!Files.isDirectory(logs)) {
      err.println(PREFIX + "no such folder: " + logs);
      return USAGE;
    }
    try {
      Path root = Path.of(System.getProperty("coflow.home", "."));
      Path spark = SparkDistribution.home(root, err);
      TerasortCommand.Jars jars = TerasortCommand.Jars.find(root);
      Path log = Files.createTempFile("coflow-history-", ".log");
      try (SparkHistoryServer server =
          SparkHistoryServer.start(spark, jars.plugin(), logs, port, log)) {
        out.println(server.url() + " (its log: " + log + "; Ctrl-C stops it)");
        out.flush();
        return server.await() == 0 ? 0 : FAILURE;
      }
    } catch (IOException e) {
      err.println(PREFIX + Command.oneLine(e.getMessage()));
      return FAILURE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return FAILURE;
    }
  }
}
