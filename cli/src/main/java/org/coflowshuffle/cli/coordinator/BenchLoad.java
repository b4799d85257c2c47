/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.IntFunction;
import org.coflowshuffle.coordinator.protocol.Message;

/** The shuffles and flow events {@code bench coordinator} sends, drawn at random. */
final class BenchLoad {

  private BenchLoad() {}

  /** A flow a fetcher asks the rate of: reducer r of shuffle s, placed on at, from source. */
  record FlowRef(int shuffle, int reducer, String source, String at) {}

  /** One shuffle's map output: per map, its executor and its bytes for each reducer. */
  record MapOutputs(String[] executor, long[][] bytes) {

    /** 1–100 MB per map and reducer, each map on a random one of the hosts' executors. */
    static MapOutputs draw(BenchSetting set, Random random) {
      String[] executor = new String[set.maps()];
      long[][] bytes = new long[set.maps()][set.reducers()];
      for (int m = 0; m < executor.length; m++) {
        for (int r = 0; r < set.reducers(); r++) {
          bytes[m][r] = 1_000_000L + random.nextInt(100_000_000);
        }
        executor[m] = String.valueOf(random.nextInt(set.hosts()));
      }
      return new MapOutputs(executor, bytes);
    }

    /** Adds shuffle {@code s}'s flows that cross the network, its reducers placed on {@code at}. */
    void addFlows(List<FlowRef> flows, int s, IntFunction<String> at) {
      List<String> sources = Arrays.stream(executor).distinct().toList();
      for (int r = 0; r < bytes[0].length; r++) {
        for (String src : sources) {
          if (!src.equals(at.apply(r))) {
            flows.add(new FlowRef(s, r, src, at.apply(r)));
          }
        }
      }
    }
  }

  /** The flows' indices in a random order: the order completions finish them, each once. */
  static Deque<Integer> completionOrder(List<FlowRef> flows, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int k = 0; k < flows.size(); k++) {
      order.add(k);
    }
    Collections.shuffle(order, random);
    return new ConcurrentLinkedDeque<>(order);
  }

  /**
   * A flow event: the completion of the next unfinished flow (all it has left), or 4 KiB of
   * progress of a random one (also when every flow is finished).
   */
  static Message event(
      String app, List<FlowRef> flows, Deque<Integer> unfinished, Random r, boolean completion) {
    Integer next = completion ? unfinished.poll() : null;
    FlowRef fl = flows.get(next != null ? next : r.nextInt(flows.size()));
    long bytes = next != null ? Long.MAX_VALUE : 4096;
    return new Message.Progress(app, fl.shuffle(), fl.reducer(), fl.source(), bytes);
  }
}
