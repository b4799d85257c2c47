/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeraRecordsTest {

  @Test
  void hasHadoopsLayout() {
    byte[] r = new byte[TeraRecords.RECORD];
    TeraRecords.row(0x1234ABL, r);
    assertArrayEquals(new byte[] {0x00, 0x11}, new byte[] {r[10], r[11]});
    assertEquals(
        "000000000000000000000000001234AB",
        new String(r, 12, 32, StandardCharsets.US_ASCII),
        "row id as 32 hex digits");
    assertArrayEquals(
        new byte[] {(byte) 0x88, (byte) 0x99, (byte) 0xAA, (byte) 0xBB},
        new byte[] {r[44], r[45], r[46], r[47]});
    for (int i = 48; i < 96; i++) {
      assertTrue(r[i] >= 'A' && r[i] <= 'P', "filler is printable letters");
    }
    assertArrayEquals(
        new byte[] {(byte) 0xCC, (byte) 0xDD, (byte) 0xEE, (byte) 0xFF},
        new byte[] {r[96], r[97], r[98], r[99]});
  }

  @Test
  void rowsArePureFunctionsOfTheirNumberWithSpreadKeys() {
    byte[] a = new byte[TeraRecords.RECORD];
    byte[] b = new byte[TeraRecords.RECORD];
    TeraRecords.row(42, a);
    TeraRecords.row(42, b);
    assertArrayEquals(a, b);
    TeraRecords.row(43, b);
    assertNotEquals(TeraRecords.crc(a, 0), TeraRecords.crc(b, 0));
    int[] firstByte = new int[256];
    for (long row = 0; row < 25_600; row++) {
      TeraRecords.row(row, a);
      firstByte[a[0] & 0xFF]++;
    }
    for (int count : firstByte) {
      assertTrue(count > 50 && count < 150, "first key byte near uniform: " + count);
    }
  }

  @Test
  void keysCompareUnsigned() {
    byte[] low = new byte[TeraRecords.RECORD];
    byte[] high = new byte[TeraRecords.RECORD];
    low[0] = 0x7F;
    high[0] = (byte) 0x80;
    assertTrue(TeraRecords.compareKeys(low, high) < 0, "0x80 sorts after 0x7F");
    high[0] = 0x7F;
    high[99] = 1; // beyond the key
    assertEquals(0, TeraRecords.compareKeys(low, high));
  }

  @Test
  void rangePartitionerIsMonotoneAndCoversEveryPartition() {
    List<byte[]> sample = new ArrayList<>();
    byte[] r = new byte[TeraRecords.RECORD];
    for (long row = 0; row < 5_000; row++) {
      TeraRecords.row(row, r);
      sample.add(TeraRecords.key(r));
    }
    TeraSort.RangeOnKeys p = TeraSort.RangeOnKeys.of(sample, 8);
    assertEquals(8, p.numPartitions());
    int[] counts = new int[8];
    byte[] previous = null;
    int previousPart = 0;
    List<byte[]> sorted = new ArrayList<>(sample);
    sorted.sort(new TeraRecords.KeyOrder());
    for (byte[] k : sorted) {
      int part = p.getPartition(k);
      assertTrue(part >= previousPart, "sorted keys never go to an earlier partition");
      previousPart = part;
      counts[part]++;
      previous = k;
    }
    for (int c : counts) {
      assertTrue(c > 400 && c < 850, "partitions near even: " + c);
    }
    assertTrue(previous != null);
    assertEquals(4, TeraSort.RangeOnKeys.of(List.of(), 4).numPartitions(), "empty sample");
  }
}
