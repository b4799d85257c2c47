/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.network.shuffle.ExecutorDiskUtils;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;

/**
 * One map task's shuffle output laid out as a sort-shuffle executor writes it: a data file and an
 * index of reducer offsets, under the executor's directories where Spark's resolver looks.
 */
final class ShuffleFiles {

  static final int SUB_DIRS = 4;

  private ShuffleFiles() {}

  static ExecutorShuffleInfo executor(Path dir) {
    return new ExecutorShuffleInfo(
        new String[] {dir.toString()},
        SUB_DIRS,
        "org.apache.spark.shuffle.sort.SortShuffleManager");
  }

  /** Writes {@code shuffle_S_M_0.data} with one block per reducer, and its index. */
  static void write(ExecutorShuffleInfo executor, int shuffle, long map, byte[][] blocks)
      throws IOException {
    String name = "shuffle_" + shuffle + "_" + map + "_0";
    Path data =
        Path.of(ExecutorDiskUtils.getFilePath(executor.localDirs, SUB_DIRS, name + ".data"));
    Path index =
        Path.of(ExecutorDiskUtils.getFilePath(executor.localDirs, SUB_DIRS, name + ".index"));
    Files.createDirectories(data.getParent());
    Files.createDirectories(index.getParent());
    try (DataOutputStream d = new DataOutputStream(Files.newOutputStream(data));
        DataOutputStream i = new DataOutputStream(Files.newOutputStream(index))) {
      long offset = 0;
      i.writeLong(0);
      for (byte[] b : blocks) {
        d.write(b);
        offset += b.length;
        i.writeLong(offset);
      }
    }
  }
}
