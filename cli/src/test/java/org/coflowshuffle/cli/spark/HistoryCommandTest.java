/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.coflowshuffle.cli.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryCommandTest {

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new HistoryCommand()
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
    return new String[] {
      "" + status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void anEventLogFolderIsRequiredAndMustExist(@TempDir Path dir) {
    String[] none = run();
    assertEquals("" + Command.USAGE, none[0]);
    assertTrue(none[2].contains("--event-log DIR is required"), none[2]);
    assertEquals("", none[1]);
    String[] missing = run("--event-log", dir.resolve("nope").toString());
    assertEquals("" + Command.USAGE, missing[0]);
    assertTrue(missing[2].contains("no such folder"), missing[2]);
    String[] port = run("--event-log", dir.toString(), "--port", "x");
    assertEquals("" + Command.USAGE, port[0]);
    assertEquals(1, port[2].lines().count(), port[2]);
  }

  @Test
  void terasortsEventLogIsOnForBothRunsInTheFolder() {
    var conf = TerasortCommand.parse(new String[] {"--event-log", "/tmp/events"}).sparkConf();
    assertEquals("true", conf.get("spark.eventLog.enabled"));
    assertTrue(conf.get("spark.eventLog.dir").startsWith("file:///tmp/events"), conf.toString());
  }
}
