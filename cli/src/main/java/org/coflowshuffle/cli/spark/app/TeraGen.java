/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Writes {@code rows} TeraGen records into {@code parts} files {@code part-NNNNN} under a folder.
 */
public final class TeraGen {

  private TeraGen() {}

  /** Generates the data and returns the checksum of each part, in order. */
  public static List<Checksum> run(JavaSparkContext sc, String dir, long rows, int parts) {
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      indices.add(i);
    }
    return sc.parallelize(indices, parts)
        .map(
            p -> {
              long from = rows * p / parts;
              long to = rows * (p + 1) / parts;
              return write(new Path(dir, String.format("part-%05d", p)), from, to);
            })
        .collect();
  }

  private static Checksum write(Path file, long from, long to) throws IOException {
    FileSystem fs = file.getFileSystem(new Configuration());
    byte[] rec = new byte[TeraRecords.RECORD];
    long sum = 0;
    try (OutputStream out = new java.io.BufferedOutputStream(fs.create(file, true), 1 << 20)) {
      for (long r = from; r < to; r++) {
        TeraRecords.row(r, rec);
        sum += TeraRecords.crc(rec, 0);
        out.write(rec);
      }
    }
    return new Checksum(to - from, sum);
  }
}
