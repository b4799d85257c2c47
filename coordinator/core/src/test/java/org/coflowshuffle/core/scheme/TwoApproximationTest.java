/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.junit.jupiter.api.Test;

/**
 * Theorem 5 on instances built to break it: one coflow alone on uniform related hosts with wide
 * speed spreads, equal and unequal reducers, many hosts per speed class, senders apart and fast.
 * The optimum comes from an independent method, not the code under test: with senders fixed, a
 * placement's least CCT is its most loaded link's bytes over its bandwidth (Theorem 1), so the
 * optimum is the least of that over placements, enumerated by counts per speed class for equal
 * reducers and by host for unequal ones. {@code rpc} and {@code rpc-faithful} must be within twice
 * it on every instance.
 */
class TwoApproximationTest {

  private static final String[] SCHEMES = {"rpc", "rpc-faithful"};

  /** Bytes per second of the senders: never the bottleneck. */
  private static final double SENDER = 1e13;

  /**
   * The instance of the issue that found the bound broken: 15 equal reducers, one fast host, ten at
   * a fifth of its speed and many slower still. Five on the fast host and one on each of the ten
   * take 10 s; all on the fast host, 30 s.
   */
  @Test
  void aFewFastHostsAmongManySlowOnes() {
    double[] speeds = new double[1 + 10 + 1000];
    Arrays.fill(speeds, 1e7);
    speeds[0] = 5e8;
    Arrays.fill(speeds, 1, 11, 1e8);
    double[] work = new double[15];
    Arrays.fill(work, 1e9);
    Instance inst = instance(speeds, work);
    assertEquals(10.0, optimumEqual(speeds, 1e9, 15), 1e-9);
    for (String scheme : SCHEMES) {
      assertEquals(10.0, cct(inst, scheme), 1e-6, scheme);
    }
  }

  @Test
  void equalReducersOnSpeedClassesOfManyHosts() {
    Random rnd = new Random(20261127L);
    double worst = 0;
    for (int trial = 0; trial < 120; trial++) {
      int classes = 2 + rnd.nextInt(3);
      List<Double> list = new ArrayList<>();
      double speed = 1e9;
      for (int c = 0; c < classes; c++) {
        // The last class is often a crowd of slow hosts: they lower the coflow's pooled bound
        // without helping it, the shape that tempts a rule keyed to that bound.
        boolean crowd = c == classes - 1 && rnd.nextBoolean();
        int hosts = crowd ? 200 + rnd.nextInt(1300) : 1 + rnd.nextInt(c == 0 ? 3 : 40);
        for (int h = 0; h < hosts; h++) {
          list.add(speed);
        }
        speed /= 1.5 + 30 * rnd.nextDouble(); // spreads from 1.5x to over 30x between classes
      }
      double[] speeds = list.stream().mapToDouble(Double::doubleValue).toArray();
      int reducers = 1 + rnd.nextInt(40);
      double w = 1e8 + rnd.nextInt(1000) * 1e7;
      double[] work = new double[reducers];
      Arrays.fill(work, w);
      double opt = optimumEqual(speeds, w, reducers);
      worst = Math.max(worst, check(instance(speeds, work), opt, "equal trial " + trial));
    }
    assertTrue(worst <= 2 * (1 + 1e-9), "worst ratio " + worst);
  }

  @Test
  void unequalReducersOnFewHosts() {
    Random rnd = new Random(7L);
    for (int trial = 0; trial < 150; trial++) {
      int hosts = 2 + rnd.nextInt(4);
      double[] speeds = new double[hosts];
      speeds[0] = 1e9;
      for (int j = 1; j < hosts; j++) {
        speeds[j] = speeds[0] / Math.pow(10, 2 * rnd.nextDouble()); // up to 100x slower
      }
      int reducers = 1 + rnd.nextInt(7);
      double[] work = new double[reducers];
      for (int n = 0; n < reducers; n++) {
        work[n] = 1e7 * Math.pow(10, 2.5 * rnd.nextDouble()); // sizes over 2.5 decades
      }
      check(instance(speeds, work), optimumByHost(speeds, work), "unequal trial " + trial);
    }
  }

  @Test
  void unequalReducersOnSpeedClassesOfManyHosts() {
    Random rnd = new Random(31L);
    for (int trial = 0; trial < 120; trial++) {
      int classes = 2 + rnd.nextInt(2);
      double[] classSpeed = new double[classes];
      int[] classHosts = new int[classes];
      List<Double> list = new ArrayList<>();
      double speed = 1e9;
      for (int c = 0; c < classes; c++) {
        classSpeed[c] = speed;
        classHosts[c] = 1 + rnd.nextInt(c == 0 ? 2 : 12);
        for (int h = 0; h < classHosts[c]; h++) {
          list.add(speed);
        }
        speed /= 2 + 20 * rnd.nextDouble();
      }
      int reducers = 2 + rnd.nextInt(6);
      double[] work = new double[reducers];
      for (int n = 0; n < reducers; n++) {
        work[n] = 1e8 * Math.pow(10, 1.5 * rnd.nextDouble());
      }
      double[] speeds = list.stream().mapToDouble(Double::doubleValue).toArray();
      double opt = optimumByClass(classSpeed, classHosts, work);
      check(instance(speeds, work), opt, "classes trial " + trial);
    }
  }

  /** Runs both schemes; returns the worst ratio to {@code opt}, asserting it is within [1, 2]. */
  private static double check(Instance inst, double opt, String where) {
    double worst = 0;
    for (String scheme : SCHEMES) {
      double ratio = cct(inst, scheme) / opt;
      assertTrue(ratio >= 1 - 1e-9, where + ": " + scheme + " beat the optimum, " + ratio);
      assertTrue(ratio <= 2 * (1 + 1e-9), where + ": " + scheme + " at " + ratio + "x the optimum");
      worst = Math.max(worst, ratio);
    }
    return worst;
  }

  private static double cct(Instance inst, String scheme) {
    Schedule s = ScheduleRunner.run(inst, Schemes.create(scheme, SchemeOptions.defaults()));
    FeasibilityChecker.check(inst, s);
    return s.coflows().get(0).cct();
  }

  /** Receivers at the given speeds, then one sender per reducer holding all its bytes. */
  private static Instance instance(double[] speeds, double[] work) {
    List<Host> hosts = new ArrayList<>();
    for (int j = 0; j < speeds.length; j++) {
      hosts.add(Host.of("M" + j, speeds[j], speeds[j]));
    }
    List<Reducer> reducers = new ArrayList<>();
    List<Flow> flows = new ArrayList<>();
    for (int n = 0; n < work.length; n++) {
      hosts.add(new Host("S" + n, SENDER, SENDER, Host.UNLIMITED_SLOTS, false));
      reducers.add(Reducer.free("r" + n));
      flows.add(new Flow(speeds.length + n, n, work[n]));
    }
    return new Instance(hosts, List.of(new Coflow("C", 0, reducers, flows)));
  }

  /**
   * Equal reducers of {@code w} bytes: by a deadline T host j can finish floor(T b_j / w) of them,
   * so the optimum is the least T at which the hosts together finish all, one of the times k w /
   * b_j. The senders' time (one reducer's bytes each) is below every such T.
   */
  private static double optimumEqual(double[] speeds, double w, int reducers) {
    double best = Double.POSITIVE_INFINITY;
    for (double b : Arrays.stream(speeds).distinct().toArray()) {
      for (int k = 1; k <= reducers; k++) {
        double t = k * w / b;
        if (t < best && finished(speeds, w, t) >= reducers) {
          best = t;
        }
      }
    }
    return Math.max(best, w / SENDER);
  }

  private static long finished(double[] speeds, double w, double t) {
    long total = 0;
    for (double b : speeds) {
      total += (long) Math.floor(t * b / w * (1 + 1e-12));
    }
    return total;
  }

  /**
   * Unequal reducers on classes of equal hosts: hosts of one class are interchangeable, so each
   * reducer goes to a class and to one of the groups opened there so far or a new one (at most one
   * per host), which enumerates every placement once up to the order of equal hosts.
   */
  private static double optimumByClass(double[] classSpeed, int[] classHosts, double[] work) {
    double[][] load = new double[classSpeed.length][work.length];
    int[] opened = new int[classSpeed.length];
    double[] best = {Double.POSITIVE_INFINITY};
    byClass(classSpeed, classHosts, work, 0, load, opened, best);
    double senders = 0;
    for (double w : work) {
      senders = Math.max(senders, w / SENDER);
    }
    return Math.max(best[0], senders);
  }

  private static void byClass(
      double[] classSpeed,
      int[] classHosts,
      double[] work,
      int n,
      double[][] load,
      int[] opened,
      double[] best) {
    if (n == work.length) {
      double t = 0;
      for (int c = 0; c < classSpeed.length; c++) {
        for (int g = 0; g < opened[c]; g++) {
          t = Math.max(t, load[c][g] / classSpeed[c]);
        }
      }
      best[0] = Math.min(best[0], t);
      return;
    }
    for (int c = 0; c < classSpeed.length; c++) {
      int groups = Math.min(opened[c] + 1, classHosts[c]);
      for (int g = 0; g < groups; g++) {
        boolean opens = g == opened[c];
        load[c][g] += work[n];
        opened[c] += opens ? 1 : 0;
        if (load[c][g] / classSpeed[c] < best[0]) {
          byClass(classSpeed, classHosts, work, n + 1, load, opened, best);
        }
        opened[c] -= opens ? 1 : 0;
        load[c][g] -= work[n];
      }
    }
  }

  /** Unequal reducers: every placement, host by host, pruned by the best found. */
  private static double optimumByHost(double[] speeds, double[] work) {
    double[] best = {Double.POSITIVE_INFINITY};
    enumerate(speeds, work, 0, new double[speeds.length], best);
    double senders = 0;
    for (double w : work) {
      senders = Math.max(senders, w / SENDER);
    }
    return Math.max(best[0], senders);
  }

  private static void enumerate(
      double[] speeds, double[] work, int n, double[] load, double[] best) {
    if (n == work.length) {
      double t = 0;
      for (int j = 0; j < speeds.length; j++) {
        t = Math.max(t, load[j] / speeds[j]);
      }
      best[0] = Math.min(best[0], t);
      return;
    }
    for (int j = 0; j < speeds.length; j++) {
      load[j] += work[n];
      if (load[j] / speeds[j] < best[0]) {
        enumerate(speeds, work, n + 1, load, best);
      }
      load[j] -= work[n];
    }
  }
}
