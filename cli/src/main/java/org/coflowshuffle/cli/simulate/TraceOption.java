/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.simulator.trace.CoflowTrace;

/** The {@code --trace FILE} option of the simulator's commands. */
final class TraceOption {

  private TraceOption() {}

  /** The trace named by {@code --trace}, or the Facebook trace that ships with the simulator. */
  static CoflowTrace read(Flags flags) {
    if (!flags.has("--trace")) {
      return CoflowTrace.facebook();
    }
    Path path = Path.of(flags.string("--trace", ""));
    if (!Files.isReadable(path)) {
      throw new IllegalArgumentException("--trace: cannot read " + path);
    }
    try {
      return CoflowTrace.read(path);
    } catch (CoflowTrace.TraceFormatException e) {
      throw new IllegalArgumentException(e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("--trace: cannot read " + path + ": " + e.getMessage());
    }
  }
}
