/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;

/** Seeded random instances for property tests. */
final class RandomInstances {

  private static final double[] GBPS = {0.1, 0.2, 0.5, 1, 10, 40};

  private RandomInstances() {}

  /**
   * One coflow: {@code receivers} hosts that may run reducers, {@code senders} hosts that only
   * send, bandwidths from the paper's set, unlimited slots.
   */
  static Instance singleCoflow(Random rnd, int receivers, int senders, int reducers) {
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < receivers; j++) {
      hosts.add(Host.of("M" + j, bandwidth(rnd), bandwidth(rnd)));
    }
    for (int u = 0; u < senders; u++) {
      hosts.add(new Host("S" + u, bandwidth(rnd), bandwidth(rnd), Host.UNLIMITED_SLOTS, false));
    }
    return new Instance(hosts, List.of(coflow(rnd, "C0", 0, receivers, senders, reducers, false)));
  }

  /**
   * Several coflows with random arrivals; senders may also host reducers (locality), some hosts
   * have few slots, some reducers are pinned.
   */
  static Instance multiCoflow(Random rnd) {
    int m = 2 + rnd.nextInt(5);
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      // Host 0 takes the pinned reducers, so its slots stay unlimited.
      int slots = j > 0 && rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(2) : Host.UNLIMITED_SLOTS;
      hosts.add(
          new Host("H" + j, bandwidth(rnd), bandwidth(rnd), slots, j == 0 || rnd.nextBoolean()));
    }
    List<Coflow> coflows = new ArrayList<>();
    int c = 1 + rnd.nextInt(4);
    for (int i = 0; i < c; i++) {
      double arrival = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 2;
      coflows.add(coflow(rnd, "C" + i, arrival, 0, m, 1 + rnd.nextInt(4), true));
    }
    return new Instance(hosts, coflows);
  }

  /**
   * As {@code simulate --workload rpc-synthetic} builds it, small: send-only hosts, reducer hosts
   * with NICs from the paper's set (some with a slot limit when {@code slots}), Poisson arrivals,
   * every sender to every reducer, now and then a reducer pinned or one with nothing to fetch.
   */
  static Instance synthetic(Random rnd, boolean slots) {
    int senders = 2 + rnd.nextInt(3);
    int receivers = 3 + rnd.nextInt(5);
    List<Host> hosts = new ArrayList<>();
    for (int u = 0; u < senders; u++) {
      hosts.add(Host.sender("S" + u, 40 * 1.25e8));
    }
    for (int j = 0; j < receivers; j++) {
      double b = GBPS[rnd.nextInt(GBPS.length)] * 1.25e8;
      int limit = slots && rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(2) : Host.UNLIMITED_SLOTS;
      hosts.add(new Host("R" + j, b, b, limit, true));
    }
    List<Coflow> coflows = new ArrayList<>();
    double t = 0;
    for (int c = 0; c < 4 + rnd.nextInt(8); c++) {
      t += -Math.log(1 - rnd.nextDouble()) / 5;
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      double size = Math.exp(rnd.nextDouble() * 8) * 1e7; // 10 MB to 30 GB, skewed small
      int n = 1 + rnd.nextInt(receivers);
      for (int r = 0; r < n; r++) {
        boolean pin = !slots && rnd.nextInt(8) == 0;
        reducers.add(
            new Reducer(
                "C" + c + ".r" + r, pin ? senders + rnd.nextInt(receivers) : Reducer.NOT_PINNED));
        for (int u = 0; u < senders && rnd.nextInt(12) > 0; u++) { // now and then none
          flows.add(new Flow(u, r, size * (0.5 + rnd.nextDouble()) / (n * senders)));
        }
      }
      coflows.add(new Coflow("C" + c, t, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }

  /**
   * Like {@link #synthetic} without slots, but every coflow is a full shuffle listed sender by
   * sender (every sender to every reducer in turn, the order of the paper's workload), and the
   * senders' bandwidths are drawn from the paper's set too, so that slow senders stretch their
   * receivers and bind their uplinks.
   */
  static Instance fullShuffle(Random rnd) {
    return fullShuffle(rnd, 5, false);
  }

  /**
   * Like {@link #fullShuffle(Random)}, with 3 to {@code 2 + widths} receivers, and the flows listed
   * reducer by reducer instead of sender by sender if {@code byReducer}.
   */
  static Instance fullShuffle(Random rnd, int widths, boolean byReducer) {
    int senders = 2 + rnd.nextInt(3);
    int receivers = 3 + rnd.nextInt(widths);
    List<Host> hosts = new ArrayList<>();
    for (int u = 0; u < senders; u++) {
      hosts.add(Host.sender("S" + u, bandwidth(rnd)));
    }
    for (int j = 0; j < receivers; j++) {
      double b = bandwidth(rnd);
      hosts.add(Host.of("R" + j, b, b));
    }
    List<Coflow> coflows = new ArrayList<>();
    double t = 0;
    for (int c = 0; c < 4 + rnd.nextInt(8); c++) {
      t += -Math.log(1 - rnd.nextDouble()) / 5;
      double size = Math.exp(rnd.nextDouble() * 8) * 1e7;
      int n = 1 + rnd.nextInt(receivers);
      List<Reducer> reducers = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        reducers.add(new Reducer("C" + c + ".r" + r, Reducer.NOT_PINNED));
      }
      List<Flow> flows = new ArrayList<>();
      for (int u = 0; u < senders; u++) {
        for (int r = 0; r < n; r++) {
          flows.add(new Flow(u, r, size * (0.5 + rnd.nextDouble()) / (n * senders)));
        }
      }
      if (byReducer) {
        flows.sort(Comparator.comparingInt(Flow::reducer)); // stable: senders stay in order
      }
      coflows.add(new Coflow("C" + c, t, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }

  private static Coflow coflow(
      Random rnd,
      String id,
      double arrival,
      int firstSender,
      int senders,
      int reducers,
      boolean pins) {
    List<Reducer> rs = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int r = 0; r < reducers; r++) {
      rs.add(new Reducer(id + ".r" + r, pins && rnd.nextInt(6) == 0 ? 0 : Reducer.NOT_PINNED));
      for (int u = 0; u < senders; u++) {
        if (rnd.nextInt(3) > 0) {
          flows.add(new Flow(firstSender + u, r, 1e6 + rnd.nextDouble() * 2e8));
        }
      }
    }
    return new Coflow(id, arrival, rs, flows);
  }

  private static double bandwidth(Random rnd) {
    return GBPS[rnd.nextInt(GBPS.length)] * 1.25e8;
  }
}
