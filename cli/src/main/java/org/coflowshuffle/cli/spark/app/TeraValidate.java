/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.input.PortableDataStream;

/**
 * Checks sorted output: records in order within each part file, every part's first key at or after
 * the previous part's last key, and count and checksum equal to the generated data's.
 */
public final class TeraValidate {

  private TeraValidate() {}

  /** What one part file holds (a class: Kryo cannot build records). */
  static final class Part implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;
    final Checksum sum;
    final byte[] first;
    final byte[] last;
    final long outOfOrder;

    Part(String name, Checksum sum, byte[] first, byte[] last, long outOfOrder) {
      this.name = name;
      this.sum = sum;
      this.first = first;
      this.last = last;
      this.outOfOrder = outOfOrder;
    }
  }

  /**
   * The verdict on {@code dir}: {@code ok} with an empty {@code problems} list when it is a correct
   * sort of data with checksum {@code expected}.
   */
  public record Result(boolean ok, Checksum found, List<String> problems) {}

  public static Result run(JavaSparkContext sc, String dir, Checksum expected) {
    List<Part> parts =
        new ArrayList<>(sc.binaryFiles(dir).map(f -> scan(f._1(), f._2())).collect());
    parts.sort(Comparator.comparing(p -> p.name));
    List<String> problems = new ArrayList<>();
    Checksum found = Checksum.ZERO;
    byte[] previousLast = null;
    for (Part p : parts) {
      found = found.plus(p.sum);
      if (p.outOfOrder > 0) {
        problems.add(p.name + ": " + p.outOfOrder + " records out of order");
      }
      if (p.first != null) {
        if (previousLast != null && TeraRecords.compareKeys(previousLast, p.first) > 0) {
          problems.add(p.name + ": first key is before the previous part's last key");
        }
        previousLast = p.last;
      }
    }
    if (!found.equals(expected)) {
      problems.add("checksum " + found + " differs from the generated data's " + expected);
    }
    return new Result(problems.isEmpty(), found, problems);
  }

  private static Part scan(String path, PortableDataStream stream) throws IOException {
    String name = path.substring(path.lastIndexOf('/') + 1);
    byte[] rec = new byte[TeraRecords.RECORD];
    byte[] first = null;
    byte[] prev = null;
    long n = 0;
    long sum = 0;
    long bad = 0;
    try (DataInputStream in = stream.open()) {
      while (true) {
        int got = in.readNBytes(rec, 0, rec.length);
        if (got < rec.length) {
          if (got > 0) {
            bad++; // a truncated last record
          }
          break;
        }
        n++;
        sum += TeraRecords.crc(rec, 0);
        byte[] key = TeraRecords.key(rec);
        if (first == null) {
          first = key;
        } else if (TeraRecords.compareKeys(prev, key) > 0) {
          bad++;
        }
        prev = key;
      }
    }
    return new Part(name, new Checksum(n, sum), first, prev, bad);
  }
}
