package org.coflowshuffle.simulator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.coflowshuffle.coordinator.cli.Flags;
import org.coflowshuffle.simulator.TraceLocator;
import org.coflowshuffle.simulator.trace.CoflowTrace;

/** The {@code --trace FILE} option of the simulator's commands. */
final class TraceOption {

  private TraceOption() {}

  /** The trace named by {@code --trace}, or the shared Facebook trace. */
  static CoflowTrace read(Flags flags) {
    Path path = flags.has("--trace") ? Path.of(flags.string("--trace", "")) : TraceLocator.find();
    if (path == null) {
      throw new IllegalArgumentException(
          "cannot find the Facebook trace (shared/data/coflow-benchmark/FB2010-1Hr-150-0.txt); "
              + "give it with --trace FILE");
    }
    if (!Files.isReadable(path)) {
      throw new IllegalArgumentException("cannot read the trace " + path);
    }
    try {
      return CoflowTrace.read(path);
    } catch (CoflowTrace.TraceFormatException e) {
      throw new IllegalArgumentException(e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the trace " + path + ": " + e.getMessage());
    }
  }
}
