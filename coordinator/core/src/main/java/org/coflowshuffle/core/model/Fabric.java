/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The network between the hosts. The RPC paper (section II-B) and every scheme but Rapier see one
 * non-blocking switch, where only the hosts' own links can be bottlenecks: that is {@link
 * #bigSwitch}. A multi-path fabric (fat-tree, VL2: see {@link FatTree}, {@link Vl2}) adds links
 * inside the network, each with its own capacity, and gives every pair of hosts a set of candidate
 * paths; a flow takes one of them (Rapier, section III: routing is the scheduler's choice too).
 *
 * <p>Links are numbered as one list of resources so that a path is just an array of indices: host
 * j's outgoing link is {@code j}, its incoming link {@code hosts + j}, and link {@code i} inside
 * the fabric is {@code 2 * hosts + i}. Host links take their capacity from the {@link Host}
 * records; links inside from this object. Paths are computed on first use and kept.
 */
public final class Fabric {

  /** Candidate paths between two hosts, as indices of links inside the fabric. */
  @FunctionalInterface
  public interface PathFinder {
    /**
     * Every candidate path from host {@code src} to host {@code dst} ({@code src != dst}): at least
     * one; a path of no inner link means both hosts hang off the same switch.
     */
    int[][] between(int src, int dst);
  }

  private final String name;
  private final int hosts;
  private final double[] inner;
  private final PathFinder finder;
  private final ConcurrentHashMap<Long, int[][]> paths = new ConcurrentHashMap<>();

  /**
   * @param name what to call it in reports, e.g. {@code fat-tree k=8}
   * @param hosts number of hosts attached
   * @param innerBytesPerSec capacity of each link inside the fabric, bytes per second
   * @param finder candidate paths between two hosts
   */
  public Fabric(String name, int hosts, double[] innerBytesPerSec, PathFinder finder) {
    if (hosts < 0) {
      throw new IllegalArgumentException("fabric " + name + ": " + hosts + " hosts");
    }
    for (int i = 0; i < innerBytesPerSec.length; i++) {
      if (!(innerBytesPerSec[i] >= 0) || Double.isInfinite(innerBytesPerSec[i])) {
        throw new IllegalArgumentException(
            "fabric " + name + ": link " + i + " has capacity " + innerBytesPerSec[i]);
      }
    }
    this.name = name;
    this.hosts = hosts;
    this.inner = innerBytesPerSec.clone();
    this.finder = finder;
  }

  /** One non-blocking switch: no inner links, one path between any two hosts. */
  public static Fabric bigSwitch(int hosts) {
    return new Fabric("big switch", hosts, new double[0], (s, d) -> new int[][] {{}});
  }

  public String name() {
    return name;
  }

  public int hosts() {
    return hosts;
  }

  /** True when only the hosts' links can be bottlenecks and every pair has one path. */
  public boolean isBigSwitch() {
    return inner.length == 0;
  }

  /** Number of resources a path may name: both links of every host plus the inner links. */
  public int links() {
    return 2 * hosts + inner.length;
  }

  /** Capacity of every resource, bytes per second: host links from {@code hostList}. */
  public double[] capacities(List<Host> hostList) {
    if (hostList.size() != hosts) {
      throw new IllegalArgumentException(
          "fabric " + name + " has " + hosts + " hosts, not " + hostList.size());
    }
    double[] c = new double[links()];
    for (int j = 0; j < hosts; j++) {
      c[j] = hostList.get(j).outBytesPerSec();
      c[hosts + j] = hostList.get(j).inBytesPerSec();
    }
    System.arraycopy(inner, 0, c, 2 * hosts, inner.length);
    return c;
  }

  /**
   * Every candidate path from {@code src} to {@code dst} as resource indices, the sender's link
   * first and the receiver's last. Shared: do not modify.
   */
  public int[][] paths(int src, int dst) {
    if (src < 0 || dst < 0 || src >= hosts || dst >= hosts || src == dst) {
      throw new IllegalArgumentException(
          "fabric " + name + ": no path from host " + src + " to host " + dst);
    }
    return paths.computeIfAbsent((long) src * hosts + dst, key -> full(src, dst));
  }

  private int[][] full(int src, int dst) {
    int[][] found = finder.between(src, dst);
    if (found.length == 0) {
      throw new IllegalStateException(
          "fabric " + name + " has no path from host " + src + " to host " + dst);
    }
    int[][] out = new int[found.length][];
    for (int k = 0; k < found.length; k++) {
      int[] p = new int[found[k].length + 2];
      p[0] = src;
      for (int i = 0; i < found[k].length; i++) {
        if (found[k][i] < 0 || found[k][i] >= inner.length) {
          throw new IllegalStateException(
              "fabric " + name + ": a path names link " + found[k][i] + " of " + inner.length);
        }
        p[i + 1] = 2 * hosts + found[k][i];
      }
      p[p.length - 1] = hosts + dst;
      out[k] = p;
    }
    return out;
  }

  @Override
  public String toString() {
    return name + " (" + hosts + " hosts, " + inner.length + " inner links)";
  }

  /** Capacities of the inner links, for tests and reports. */
  public double[] innerCapacities() {
    return Arrays.copyOf(inner, inner.length);
  }

  /**
   * The links on every one of {@code candidates}: a flow loads them whichever path it takes (a
   * host's own links, always; on a fat-tree, also its edge switch's links to the pod when both ends
   * share the edge switch).
   */
  public static int[] shared(int[][] candidates) {
    return Arrays.stream(candidates[0]).filter(l -> onEvery(l, candidates)).toArray();
  }

  /** Whether {@code link} is in {@code links}: paths are a handful of links, so a scan. */
  public static boolean contains(int[] links, int link) {
    for (int l : links) {
      if (l == link) {
        return true;
      }
    }
    return false;
  }

  private static boolean onEvery(int link, int[][] candidates) {
    for (int[] path : candidates) {
      if (!contains(path, link)) {
        return false;
      }
    }
    return true;
  }
}
