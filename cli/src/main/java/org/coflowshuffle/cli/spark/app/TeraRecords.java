/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import java.util.zip.CRC32;

/**
 * The 100-byte record of Hadoop's TeraGen: a 10-byte random key, the bytes {@code 00 11}, the row
 * number as 32 upper-case hex digits, {@code 88 99 AA BB}, 48 filler bytes and {@code CC DD EE FF}.
 * Rows are a pure function of their number, so any partitioning of the generation gives the same
 * data.
 */
public final class TeraRecords {

  public static final int RECORD = 100;
  public static final int KEY = 10;
  private static final byte[] HEX =
      "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private TeraRecords() {}

  /** Writes row {@code row} into {@code out[0..100)}. */
  public static void row(long row, byte[] out) {
    long a = mix(row * 2 + 1);
    long b = mix(row * 2 + 2);
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (a >>> (56 - 8 * i));
    }
    out[8] = (byte) (b >>> 56);
    out[9] = (byte) (b >>> 48);
    out[10] = 0x00;
    out[11] = 0x11;
    for (int i = 0; i < 32; i++) {
      int shift = 4 * (31 - i);
      out[12 + i] = shift >= 64 ? HEX[0] : HEX[(int) ((row >>> shift) & 0xF)];
    }
    out[44] = (byte) 0x88;
    out[45] = (byte) 0x99;
    out[46] = (byte) 0xAA;
    out[47] = (byte) 0xBB;
    for (int i = 0; i < 48; i++) {
      out[48 + i] = (byte) ('A' + ((b >>> (i / 4 % 12 * 4)) & 0xF));
    }
    out[96] = (byte) 0xCC;
    out[97] = (byte) 0xDD;
    out[98] = (byte) 0xEE;
    out[99] = (byte) 0xFF;
  }

  /** SplitMix64's finalizer: a fixed, well-spread function of the row number. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** CRC32 of one record, the per-record term of TeraGen's and TeraValidate's checksum. */
  public static long crc(byte[] record, int offset) {
    CRC32 crc = new CRC32();
    crc.update(record, offset, RECORD);
    return crc.getValue();
  }

  /** The record's key, copied. */
  public static byte[] key(byte[] record) {
    return Arrays.copyOf(record, KEY);
  }

  /** Unsigned lexicographic order of keys (or of whole records, by their first bytes). */
  public static int compareKeys(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, 0, KEY, b, 0, KEY);
  }

  /** {@link #compareKeys} as a serializable comparator, for Spark's sort. */
  public static final class KeyOrder implements Comparator<byte[]>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(byte[] a, byte[] b) {
      return compareKeys(a, b);
    }
  }
}
