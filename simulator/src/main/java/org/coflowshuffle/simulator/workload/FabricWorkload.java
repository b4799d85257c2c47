/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.FatTree;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.model.Vl2;

/**
 * The {@code fabric} workload of Rapier's section V-B: coflows of a given width (number of flows),
 * many-to-many on a multi-path fabric (fat-tree or VL2), arriving as a Poisson process. The paper
 * says neither how flows pair hosts nor how large they are: here each flow joins two distinct hosts
 * drawn at random (one reducer per destination, pinned there, so the comparison is about paths and
 * rates only) and carries between 1 and 20 MiB, uniformly.
 */
public final class FabricWorkload {

  /** Default coflow width: the paper's Fig. 4 sweeps 16 to 384; 64 is where it reports most. */
  public static final int DEFAULT_WIDTH = 64;

  /** Default topology: 128 hosts, small enough to replay every scheme in seconds. */
  public static final String DEFAULT_TOPOLOGY = "fat-tree:8";

  /** VL2's switch links are this many times faster than a server's (10 against 1 Gbps). */
  public static final double VL2_SWITCH_SPEEDUP = 10;

  private static final double MIB = 1 << 20;

  private FabricWorkload() {}

  /**
   * Builds the fabric named by {@code spec}: {@code fat-tree[:K]} (K-ary) or {@code
   * vl2[:DA:DI[:SERVERS]]}.
   *
   * @param switchBytesPerSec speed of the links between switches; 0 for the topology's own: the
   *     port speed on a fat-tree, {@link #VL2_SWITCH_SPEEDUP} times it on VL2
   * @throws IllegalArgumentException one line saying what is wrong with {@code spec}
   */
  public static Fabric topology(String spec, double portBytesPerSec, double switchBytesPerSec) {
    String[] parts = spec.split(":", -1);
    try {
      switch (parts[0]) {
        case "fat-tree":
          if (parts.length > 2) {
            break;
          }
          return FatTree.of(
              parts.length == 2 ? Integer.parseInt(parts[1]) : 8,
              switchBytesPerSec > 0 ? switchBytesPerSec : portBytesPerSec);
        case "vl2":
          if (parts.length != 1 && parts.length != 3 && parts.length != 4) {
            break;
          }
          int da = parts.length > 1 ? Integer.parseInt(parts[1]) : 8;
          int di = parts.length > 1 ? Integer.parseInt(parts[2]) : 8;
          int servers = parts.length == 4 ? Integer.parseInt(parts[3]) : 20;
          return Vl2.of(
              da,
              di,
              servers,
              switchBytesPerSec > 0 ? switchBytesPerSec : VL2_SWITCH_SPEEDUP * portBytesPerSec);
        default:
          break;
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--topology: \"" + spec + "\" has a part that is not a whole number");
    }
    throw new IllegalArgumentException(
        "--topology: expected fat-tree[:K] or vl2[:DA:DI[:SERVERS]], got \"" + spec + "\"");
  }

  /**
   * @param portBytesPerSec every host's link, each way
   * @param width flows per coflow, each between two distinct hosts drawn at random
   * @param rate Poisson arrivals per second; 0 for all coflows at time 0
   */
  public static Instance instance(
      Fabric fabric, double portBytesPerSec, int coflows, int width, double rate, long seed) {
    int n = fabric.hosts();
    List<Host> hosts = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      hosts.add(Host.of("h" + j, portBytesPerSec, portBytesPerSec));
    }
    Random random = new Random(seed);
    List<Coflow> list = new ArrayList<>(coflows);
    double t = 0;
    for (int i = 0; i < coflows; i++) {
      t = RpcSynthetic.nextArrival(t, rate, random);
      list.add(coflow("C" + i, t, width, n, random));
    }
    return new Instance(hosts, list, fabric);
  }

  private static Coflow coflow(String id, double arrival, int width, int n, Random random) {
    Map<Integer, Integer> reducerAt = new HashMap<>(); // destination host -> reducer index
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>(width);
    for (int k = 0; k < width; k++) {
      int src = random.nextInt(n);
      int dst = random.nextInt(n - 1);
      dst += dst >= src ? 1 : 0;
      int host = dst;
      int r =
          reducerAt.computeIfAbsent(
              dst,
              d -> {
                reducers.add(new Reducer(id + ".r" + reducers.size(), host));
                return reducers.size() - 1;
              });
      flows.add(new Flow(src, r, MIB * (1 + 19 * random.nextDouble())));
    }
    return new Coflow(id, arrival, reducers, flows);
  }
}
