/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import java.io.File;
import java.io.IOException;

/**
 * Where the bytes of a block are: a segment of a file. In Spark, the shuffle block resolver of the
 * sending executor; in tests and benchmarks, plain files.
 */
@FunctionalInterface
public interface BlockSource {

  /** A segment of a file. */
  record Segment(File file, long offset, long length) {
    public Segment {
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException("segment of " + file + ": " + offset + "+" + length);
      }
    }
  }

  /**
   * How a fetch names a block on a server that holds the blocks of many applications and executors
   * (a NodeManager's shuffle service): {@code APP/EXECUTOR/BLOCK}. An executor's own server takes
   * the bare block id.
   */
  static String qualified(String appId, String executorId, String blockId) {
    return appId + "/" + executorId + "/" + blockId;
  }

  /**
   * The application, executor and block id of a {@link #qualified} name.
   *
   * @throws IOException naming the expected form when {@code name} is not one
   */
  static String[] unqualified(String name) throws IOException {
    String[] parts = name.split("/", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      throw new IOException("expected APP/EXECUTOR/BLOCK, got \"" + name + "\"");
    }
    return parts;
  }

  /**
   * The segment holding {@code blockId}.
   *
   * @throws IOException with a message naming the block when it does not exist
   */
  Segment resolve(String blockId) throws IOException;
}
