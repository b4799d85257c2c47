/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.io.IOException;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.buffer.FileSegmentManagedBuffer;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.storage.BlockId;
import org.coflowshuffle.ratelimit.BlockSource;
import scala.Option;

/**
 * The shuffle blocks this executor wrote, found by Spark's own block resolver: a block id such as
 * {@code shuffle_3_17_5} (or a batch {@code shuffle_3_17_5_8}) becomes its segment of the data
 * file.
 */
final class ShuffleBlockSource implements BlockSource {

  @Override
  public Segment resolve(String blockId) throws IOException {
    BlockId id;
    try {
      id = BlockId.apply(blockId);
    } catch (RuntimeException e) {
      throw new IOException("not a block id");
    }
    if (!id.isShuffle()) {
      throw new IOException("not a shuffle block");
    }
    ManagedBuffer buffer;
    try {
      buffer =
          SparkEnv.get().shuffleManager().shuffleBlockResolver().getBlockData(id, Option.empty());
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
    if (buffer instanceof FileSegmentManagedBuffer f) {
      return new Segment(f.getFile(), f.getOffset(), f.getLength());
    }
    throw new IOException("not stored as a file segment");
  }

  /**
   * Why this Spark's shuffle manager cannot be asked for its files as this class does (a Spark
   * whose {@code ShuffleManager.shuffleBlockResolver()} is gone or returns another type), or null.
   */
  static String unsupported() {
    try {
      Class<?> returned =
          org.apache.spark.shuffle.ShuffleManager.class
              .getMethod("shuffleBlockResolver")
              .getReturnType();
      return returned == org.apache.spark.shuffle.ShuffleBlockResolver.class
          ? null
          : "its ShuffleManager.shuffleBlockResolver() returns " + returned.getName();
    } catch (NoSuchMethodException e) {
      return "it has no ShuffleManager.shuffleBlockResolver()";
    }
  }
}
