/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.Arrays;

/**
 * The VL2 topology of Greenberg et al., Rapier's second simulated fabric (section V-B): D_I
 * aggregation switches in pairs, D_A/2 intermediate switches linked to every aggregation switch,
 * D_A*D_I/4 top-of-rack switches each linked to one pair of aggregation switches, and a fixed
 * number of servers per rack. Server links are slow (1 Gbps in the paper), switch links fast (10
 * Gbps), so a rack's two uplinks carry what its servers send out of it. Racks on one aggregation
 * pair have 2 paths; other racks have 2 * D_A (aggregation up, intermediate, aggregation down).
 */
public final class Vl2 {

  private Vl2() {}

  /** Hosts of VL2 with the given parameters. */
  public static int hosts(int aggregationPorts, int intermediatePorts, int serversPerRack) {
    check(aggregationPorts, intermediatePorts, serversPerRack);
    return aggregationPorts * intermediatePorts / 4 * serversPerRack;
  }

  /**
   * @param aggregationPorts D_A, ports of an aggregation switch: half to racks, half up
   * @param intermediatePorts D_I, ports of an intermediate switch, one per aggregation switch
   * @param serversPerRack hosts under one top-of-rack switch (the paper: 20)
   * @param switchBytesPerSec speed of every link between switches
   */
  public static Fabric of(
      int aggregationPorts, int intermediatePorts, int serversPerRack, double switchBytesPerSec) {
    int n = hosts(aggregationPorts, intermediatePorts, serversPerRack);
    int racksPerPair = aggregationPorts / 2;
    int racks = aggregationPorts * intermediatePorts / 4;
    int aggs = intermediatePorts;
    int ints = aggregationPorts / 2;
    // Directed inner links: rack->agg and agg->rack (2 per rack each way), agg->int and int->agg.
    int rackUp = 0;
    int rackDown = 2 * racks;
    int aggUp = 4 * racks;
    int aggDown = aggUp + aggs * ints;
    double[] capacity = new double[aggDown + aggs * ints];
    Arrays.fill(capacity, switchBytesPerSec);
    Fabric.PathFinder finder =
        (src, dst) -> {
          int rs = src / serversPerRack;
          int rd = dst / serversPerRack;
          if (rs == rd) {
            return new int[][] {{}};
          }
          int gs = rs / racksPerPair;
          int gd = rd / racksPerPair;
          if (gs == gd) {
            return new int[][] {
              {rackUp + 2 * rs, rackDown + 2 * rd}, {rackUp + 2 * rs + 1, rackDown + 2 * rd + 1}
            };
          }
          int[][] paths = new int[4 * ints][];
          int p = 0;
          for (int x = 0; x < 2; x++) {
            for (int i = 0; i < ints; i++) {
              for (int y = 0; y < 2; y++) {
                int as = 2 * gs + x;
                int ad = 2 * gd + y;
                paths[p++] =
                    new int[] {
                      rackUp + 2 * rs + x,
                      aggUp + as * ints + i,
                      aggDown + ad * ints + i,
                      rackDown + 2 * rd + y
                    };
              }
            }
          }
          return paths;
        };
    return new Fabric(
        "vl2 D_A=" + aggregationPorts + " D_I=" + intermediatePorts, n, capacity, finder);
  }

  private static void check(int aggregationPorts, int intermediatePorts, int serversPerRack) {
    if (aggregationPorts < 2
        || aggregationPorts % 2 != 0
        || intermediatePorts < 2
        || intermediatePorts % 2 != 0
        || serversPerRack < 1
        || aggregationPorts * intermediatePorts > 4096) {
      throw new IllegalArgumentException(
          "vl2: D_A and D_I must be even and at least 2, servers per rack at least 1; got D_A="
              + aggregationPorts
              + ", D_I="
              + intermediatePorts
              + ", "
              + serversPerRack
              + " per rack");
    }
  }
}
