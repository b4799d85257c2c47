/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stopping the daemons a testbed cluster started, with everything they started in turn. */
final class Daemons {

  private Daemons() {}

  /**
   * Asks every process and its descendants to stop, then kills what is left after {@code seconds}.
   */
  static void stop(List<Process> processes, int seconds) {
    for (Process p : processes) {
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
