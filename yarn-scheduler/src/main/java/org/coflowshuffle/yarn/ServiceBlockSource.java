/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.io.IOException;
import org.apache.spark.network.buffer.FileSegmentManagedBuffer;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.ExternalShuffleBlockResolver;
import org.coflowshuffle.ratelimit.BlockSource;

/**
 * The shuffle blocks of every executor that registered with this node's service, found by Spark's
 * own resolver. A paced fetch names its block {@link BlockSource#qualified} {@code
 * APP/EXECUTOR/shuffle_S_M_R} (or the batch {@code shuffle_S_M_R1_R2}, reducers R1 to R2
 * exclusive): unlike an executor's own server, the service holds the files of many applications and
 * executors.
 */
final class ServiceBlockSource implements BlockSource {

  private final ExternalShuffleBlockResolver resolver;

  ServiceBlockSource(ExternalShuffleBlockResolver resolver) {
    this.resolver = resolver;
  }

  @Override
  public Segment resolve(String name) throws IOException {
    String[] parts = BlockSource.unqualified(name);
    String[] f = parts[2].split("_");
    if (!f[0].equals("shuffle") || (f.length != 4 && f.length != 5)) {
      throw new IOException("not a shuffle block: \"" + parts[2] + "\"");
    }
    ManagedBuffer buffer;
    try {
      int shuffle = Integer.parseInt(f[1]);
      long map = Long.parseLong(f[2]);
      int start = Integer.parseInt(f[3]);
      buffer =
          f.length == 4
              ? resolver.getBlockData(parts[0], parts[1], shuffle, map, start)
              : resolver.getContinuousBlocksData(
                  parts[0], parts[1], shuffle, map, start, Integer.parseInt(f[4]));
    } catch (NumberFormatException e) {
      throw new IOException("not a shuffle block: \"" + parts[2] + "\"");
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
    if (buffer instanceof FileSegmentManagedBuffer s) {
      return new Segment(s.getFile(), s.getOffset(), s.getLength());
    }
    throw new IOException(parts[2] + " is not stored as a file segment");
  }
}
