/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import java.util.concurrent.ThreadFactory;

/**
 * Threads of the plugin's own: daemons, so that none of them keeps a driver or an executor JVM
 * alive after Spark stopped, and named, so that a thread dump says whose they are.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  public static ThreadFactory named(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
