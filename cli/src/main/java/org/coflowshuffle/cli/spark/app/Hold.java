/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a running application where a test can look at it (its UI, its shuffle files): it says
 * where it is in a file, then waits until the test creates the same file's {@code .go} sibling.
 */
public final class Hold {

  private Hold() {}

  /** Writes {@code content} to {@code file}, then waits (at most 5 minutes) for {@code file.go}. */
  public static void until(Path file, String content) throws Exception {
    Path go = file.resolveSibling(file.getFileName() + ".go");
    Files.writeString(file, content);
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!Files.exists(go) && System.nanoTime() < until) {
      Thread.sleep(200);
    }
  }
}
