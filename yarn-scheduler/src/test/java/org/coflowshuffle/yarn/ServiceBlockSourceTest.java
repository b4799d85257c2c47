/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.spark.network.shuffle.ExternalShuffleBlockResolver;
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.BlockSource.Segment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceBlockSourceTest {

  @TempDir Path dir;
  private ServiceBlockSource source;

  @BeforeEach
  void register() throws IOException {
    ExternalShuffleBlockResolver resolver =
        new ExternalShuffleBlockResolver(
            new TransportConf("shuffle", MapConfigProvider.EMPTY), null);
    ExecutorShuffleInfo exec = ShuffleFiles.executor(dir.resolve("exec-3"));
    resolver.registerExecutor("app-1", "3", exec);
    ShuffleFiles.write(
        exec,
        7,
        42,
        new byte[][] {bytes("0123456789"), bytes("abcdefghijklmnopqrst"), bytes("XYZ")});
    source = new ServiceBlockSource(resolver);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void findsABlockAndABatchOfAnExecutorsOutput() throws IOException {
    Segment one = source.resolve(BlockSource.qualified("app-1", "3", "shuffle_7_42_1"));
    assertEquals(10, one.offset());
    assertEquals(20, one.length());
    assertTrue(one.file().getName().equals("shuffle_7_42_0.data"), one.file().toString());
    Segment batch = source.resolve("app-1/3/shuffle_7_42_0_3");
    assertEquals(0, batch.offset());
    assertEquals(33, batch.length());
  }

  @Test
  void whatItCannotServeIsAnErrorNamingWhy() {
    assertThrows(IOException.class, () -> source.resolve("app-2/3/shuffle_7_42_1"), "unknown app");
    assertThrows(IOException.class, () -> source.resolve("app-1/9/shuffle_7_42_1"), "unknown exec");
    assertThrows(IOException.class, () -> source.resolve("app-1/3/shuffle_7_43_1"), "no such map");
    IOException e = assertThrows(IOException.class, () -> source.resolve("shuffle_7_42_1"));
    assertTrue(e.getMessage().contains("APP/EXECUTOR/BLOCK"), e.getMessage());
    e = assertThrows(IOException.class, () -> source.resolve("app-1/3/rdd_1_2"));
    assertTrue(e.getMessage().contains("not a shuffle block"), e.getMessage());
    e = assertThrows(IOException.class, () -> source.resolve("app-1/3/shuffle_x_1_2"));
    assertTrue(e.getMessage().contains("not a shuffle block"), e.getMessage());
  }
}
