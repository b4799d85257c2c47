package org.coflowshuffle.simulator;

import java.nio.file.Path;
import org.coflowshuffle.simulator.trace.CoflowTrace;

/** The shared Facebook trace for tests; fails clearly when the shared data is not beside us. */
public final class SharedTrace {

  private static CoflowTrace trace;

  private SharedTrace() {}

  public static Path path() {
    Path p = TraceLocator.find();
    if (p == null) {
      throw new AssertionError(
          "the shared trace "
              + TraceLocator.RELATIVE
              + " is not above "
              + Path.of("").toAbsolutePath());
    }
    return p;
  }

  public static synchronized CoflowTrace get() throws Exception {
    if (trace == null) {
      trace = CoflowTrace.read(path());
    }
    return trace;
  }
}
