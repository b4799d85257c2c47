package org.coflowshuffle.simulator;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the public Facebook trace when no {@code --trace} is given: beside the project, where the
 * shared data lives ({@code shared/data/coflow-benchmark/}), searched from the launcher's project
 * directory (system property {@code coflow.home}) and from the working directory upwards.
 */
public final class TraceLocator {

  static final String RELATIVE = "shared/data/coflow-benchmark/FB2010-1Hr-150-0.txt";

  private TraceLocator() {}

  /** The trace file, or null when it is nowhere to be found. */
  public static Path find() {
    String home = System.getProperty("coflow.home");
    if (home != null) {
      Path found = searchUp(Path.of(home));
      if (found != null) {
        return found;
      }
    }
    return searchUp(Path.of("").toAbsolutePath());
  }

  private static Path searchUp(Path start) {
    for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(RELATIVE);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
