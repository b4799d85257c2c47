/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository's {@code examples/} files from wherever the tests run. */
public final class Examples {

  private Examples() {}

  /** {@code examples/NAME}, found by walking up from the working directory. */
  public static Path file(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("examples").resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(
        "examples/" + name + " not found above " + Path.of("").toAbsolutePath());
  }

  /** The RPC paper's Fig. 1 instance (a copy of the instance format's worked example). */
  public static Path fig1() {
    return file("fig1.json");
  }
}
