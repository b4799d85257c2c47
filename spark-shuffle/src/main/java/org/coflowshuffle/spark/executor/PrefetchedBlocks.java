/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;

/**
 * Shuffle blocks fetched for a reduce task placed on this executor before the task started (see
 * {@link DriverOrders}), until the task asks for them. The task's fetch {@linkplain #claim claims}
 * them by block id: a block that arrived is handed over at once, one on its way as it arrives, and
 * one whose fetch failed is fetched again by the task's own request; every other block is fetched
 * as usual.
 *
 * <p>A reducer's blocks are registered all at once, and only while its task has not asked for any
 * block yet: once it has, the task fetches for itself, and a prefetch that comes later is dropped
 * rather than fetching the same bytes twice. What is held is bounded by {@code budget} bytes; a
 * block leaves the bound when it is handed over, or when Spark drops its shuffle.
 */
final class PrefetchedBlocks {

  /** What the task's request does with a block that failed on the way: fetch it again itself. */
  @FunctionalInterface
  interface Refetch {
    void fetch(String host, int port, String execId, String blockId, BlockFetchingListener to);
  }

  /** One block: its id, where it comes from, then its data or failure, and the task's listener. */
  private static final class Block {
    final String id;
    final Source from;
    final long size;
    ManagedBuffer data;
    boolean failed;
    BlockFetchingListener claimant;

    Block(String id, Source from, long size) {
      this.id = id;
      this.from = from;
      this.size = size;
    }

    /** Fetches it again for {@code to}, after its early fetch failed. */
    void refetch(Refetch refetch, BlockFetchingListener to) {
      refetch.fetch(from.host(), from.port(), from.execId(), id, to);
    }
  }

  /** A reducer's blocks, and whether its task asked for blocks already. */
  private static final class Reducer {
    final Map<String, Block> blocks = new HashMap<>();
    boolean started;
  }

  private final Map<Long, Reducer> reducers = new ConcurrentHashMap<>();
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong prefetched = new AtomicLong();
  private final long budget;
  private final Executor deliverer;
  private final Refetch refetch;

  /**
   * @param budget bytes this executor may hold for tasks that have not taken them
   * @param deliverer runs the hand-over of blocks to a task's listener, off the task's thread, as a
   *     network fetch would
   */
  PrefetchedBlocks(long budget, Executor deliverer, Refetch refetch) {
    this.budget = budget;
    this.deliverer = deliverer;
    this.refetch = refetch;
  }

  private static long key(int shuffleId, int reducer) {
    return ((long) shuffleId << 32) | (reducer & 0xffffffffL);
  }

  /**
   * A source's blocks of one reducer, to fetch before its task starts: {@code blockIds[i]} of
   * {@code sizes[i]} bytes from {@code execId} at {@code host:port}.
   */
  record Source(String host, int port, String execId, String[] blockIds, long[] sizes) {
    long bytes() {
      long sum = 0;
      for (long s : sizes) {
        sum += s;
      }
      return sum;
    }
  }

  /**
   * Registers a reducer's blocks to be fetched early; false, registering nothing, when its task
   * asked for blocks already, a block is registered already, or they would take the held bytes over
   * the budget.
   */
  boolean expect(int shuffleId, int reducer, List<Source> sources) {
    long bytes = sources.stream().mapToLong(Source::bytes).sum();
    if (held.addAndGet(bytes) > budget) {
      held.addAndGet(-bytes);
      return false;
    }
    Reducer r = reducers.computeIfAbsent(key(shuffleId, reducer), k -> new Reducer());
    synchronized (r) {
      if (!r.started && r.blocks.isEmpty()) {
        for (Source s : sources) {
          for (int i = 0; i < s.blockIds().length; i++) {
            r.blocks.put(s.blockIds()[i], new Block(s.blockIds()[i], s, s.sizes()[i]));
          }
        }
        return true;
      }
    }
    held.addAndGet(-bytes);
    return false;
  }

  /** Where the blocks fetched early report: each is kept, or handed to its claimant. */
  BlockFetchingListener listener(int shuffleId, int reducer) {
    return new BlockFetchingListener() {
      @Override
      public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
        arrived(shuffleId, reducer, blockId, data, null);
      }

      @Override
      public void onBlockFetchFailure(String blockId, Throwable exception) {
        arrived(shuffleId, reducer, blockId, null, exception);
      }
    };
  }

  private void arrived(
      int shuffleId, int reducer, String blockId, ManagedBuffer data, Throwable failure) {
    Reducer r = reducers.get(key(shuffleId, reducer));
    if (r == null) {
      return; // Spark dropped the shuffle meanwhile
    }
    Block b;
    BlockFetchingListener claimant;
    synchronized (r) {
      b = r.blocks.get(blockId);
      if (b == null || b.data != null || b.failed) {
        return;
      }
      claimant = b.claimant;
      if (claimant == null) {
        if (failure == null) {
          b.data = data.retain();
          prefetched.addAndGet(data.size());
        } else {
          b.failed = true;
        }
        return;
      }
      r.blocks.remove(blockId);
    }
    held.addAndGet(-b.size);
    if (failure == null) {
      prefetched.addAndGet(data.size());
      claimant.onBlockFetchSuccess(blockId, data); // on the fetch's thread; it retains
    } else {
      b.refetch(refetch, claimant);
    }
  }

  /**
   * The task's request for {@code blockIds}: hands {@code listener} the blocks fetched early, now
   * or as they arrive, and marks their reducers as started; returns the ids to fetch as usual (all
   * of them when none was fetched early).
   */
  String[] claim(String[] blockIds, BlockFetchingListener listener) {
    if (budget == 0) {
      return blockIds; // nothing is fetched early: no reducer needs noting
    }
    List<String> rest = new ArrayList<>();
    List<Block> taken = new ArrayList<>(); // arrived or failed: handed over below
    for (String id : blockIds) {
      int[] parsed = PacedShuffleClient.parse(id);
      if (parsed == null || parsed[2] - parsed[1] != 1) {
        rest.add(id);
        continue;
      }
      Reducer r = reducers.computeIfAbsent(key(parsed[0], parsed[1]), k -> new Reducer());
      synchronized (r) {
        r.started = true;
        Block b = r.blocks.get(id);
        if (b == null || b.claimant != null) {
          rest.add(id);
        } else if (b.data != null || b.failed) {
          r.blocks.remove(id);
          held.addAndGet(-b.size);
          taken.add(b);
        } else {
          b.claimant = listener;
        }
      }
    }
    if (!taken.isEmpty()) {
      deliverer.execute(
          () -> {
            for (Block b : taken) {
              if (b.data == null) {
                b.refetch(refetch, listener);
                continue;
              }
              try {
                listener.onBlockFetchSuccess(b.id, b.data);
              } finally {
                b.data.release();
              }
            }
          });
    }
    return rest.size() == blockIds.length ? blockIds : rest.toArray(new String[0]);
  }

  /** Whether a reducer's blocks are registered to be fetched early and not dropped. */
  boolean expects(int shuffleId, int reducer) {
    return reducers.containsKey(key(shuffleId, reducer));
  }

  /**
   * Drops a reducer's blocks, held or on their way (those still to arrive are let go), unless its
   * task asked for them: it runs on another executor. Returns whether they were dropped.
   */
  boolean drop(int shuffleId, int reducer) {
    Reducer r = reducers.get(key(shuffleId, reducer));
    if (r == null) {
      return false;
    }
    synchronized (r) {
      if (r.started) {
        return false;
      }
      release(r);
    }
    reducers.remove(key(shuffleId, reducer), r);
    return true;
  }

  /** Releases what a reducer holds; the caller holds its lock. */
  private void release(Reducer r) {
    for (Block b : r.blocks.values()) {
      held.addAndGet(-b.size);
      if (b.data != null) {
        b.data.release();
      }
    }
    r.blocks.clear();
  }

  /** Spark dropped the shuffle: what was fetched early for it goes. */
  void forget(int shuffleId) {
    reducers
        .entrySet()
        .removeIf(
            e -> {
              if ((int) (e.getKey() >> 32) != shuffleId) {
                return false;
              }
              Reducer r = e.getValue();
              synchronized (r) {
                release(r);
              }
              return true;
            });
  }

  /** Bytes held now for tasks that have not taken them (at most the budget). */
  long held() {
    return held.get();
  }

  /** Bytes of the blocks fetched early that arrived, since this executor started. */
  long prefetched() {
    return prefetched.get();
  }

  /** Reducers noted now, for the executor's footprint. */
  int reducers() {
    return reducers.size();
  }
}
