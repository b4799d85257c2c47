/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.io.Serializable;

/**
 * Record count and the sum of every record's CRC32: equal before and after sorting exactly when no
 * record was lost, duplicated or changed (up to CRC collisions), whatever the order.
 *
 * <p>A class rather than a record: Spark's Kryo serializer cannot build Java records.
 */
public final class Checksum implements Serializable {

  private static final long serialVersionUID = 1L;
  public static final Checksum ZERO = new Checksum(0, 0);

  private final long records;
  private final long crcSum;

  public Checksum(long records, long crcSum) {
    this.records = records;
    this.crcSum = crcSum;
  }

  public long records() {
    return records;
  }

  public long crcSum() {
    return crcSum;
  }

  public Checksum plus(Checksum o) {
    return new Checksum(records + o.records, crcSum + o.crcSum);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Checksum c && c.records == records && c.crcSum == crcSum;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(records) * 31 + Long.hashCode(crcSum);
  }

  @Override
  public String toString() {
    return records + " records, CRC32 sum " + crcSum;
  }
}
