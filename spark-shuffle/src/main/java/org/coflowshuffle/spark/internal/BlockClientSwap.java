/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.lang.reflect.Field;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.storage.BlockManager;

/**
 * The block client an executor fetches shuffle blocks with. Spark has no setting for it: {@code
 * BlockManager} keeps it in a private final field set at start-up and read by every shuffle fetch,
 * so it is read and replaced by reflection, once, before any task runs.
 */
public final class BlockClientSwap {

  private static final String FIELD = "blockStoreClient";

  private BlockClientSwap() {}

  /** The client the block manager fetches with now. */
  public static BlockStoreClient current(BlockManager blockManager)
      throws ReflectiveOperationException {
    return (BlockStoreClient) field().get(blockManager);
  }

  /** Makes the block manager fetch through {@code client} from now on. */
  public static void replace(BlockManager blockManager, BlockStoreClient client)
      throws ReflectiveOperationException {
    field().set(blockManager, client);
  }

  private static Field field() throws NoSuchFieldException {
    Field field = BlockManager.class.getDeclaredField(FIELD);
    field.setAccessible(true);
    return field;
  }
}
