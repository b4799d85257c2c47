/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.coflowshuffle.core.lp.LpFractionalPlacementSolver;
import org.coflowshuffle.core.lp.PathSplitLp;
import org.coflowshuffle.core.plan.Algorithm3Rates;
import org.coflowshuffle.core.plan.FaithfulPlanner;
import org.coflowshuffle.core.plan.ReceiverDrivenRates;
import org.coflowshuffle.core.plan.RelatedMachinesSolver;
import org.coflowshuffle.core.plan.RpcChange;
import org.coflowshuffle.core.plan.RpcPlanner;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.WaveRule;
import org.coflowshuffle.core.route.MinimumCct;

/**
 * Every scheme by name, so that the command line, the simulator and the live coordinator choose
 * among the same peers.
 */
public final class Schemes {

  private static final String WITHOUT = "rpc-without-";

  private Schemes() {}

  /** Scheme names, the default first. */
  public static List<String> names() {
    return List.of(
        "rpc",
        "rpc-faithful",
        "fair",
        "varys",
        "neat",
        "wss",
        "wss-priority",
        "fca",
        "aalo",
        "philae",
        "rapier",
        "scheduling-only",
        "routing-only",
        "ecmp-fair");
  }

  /**
   * Schemes that choose each flow's path and so can run on a multi-path fabric: Rapier and the
   * paper's three comparisons. The others see one non-blocking switch.
   */
  public static List<String> routing() {
    return List.of("rapier", "scheduling-only", "routing-only", "ecmp-fair");
  }

  /**
   * Schemes that never go by a coflow's sizes but learn them as it sends (Aalo's queues, Philae's
   * own pilots): a coflow whose sizes are not known needs no sampling in front of them ({@link
   * SizeLearning}).
   */
  public static boolean learnsSizes(String name) {
    return name.equals("aalo") || name.equals("philae");
  }

  /**
   * Scheme {@code rpc} with one of its changes beyond the paper left out, to measure what that
   * change buys: {@code rpc-without-slow-host-rule} and the like ({@link RpcChange#id}).
   */
  public static List<String> ablations() {
    return Arrays.stream(RpcChange.values()).map(c -> WITHOUT + c.id()).toList();
  }

  /**
   * Returns {@code name} if it names a scheme, or an {@linkplain #ablations() ablation}.
   *
   * @throws IllegalArgumentException one line naming the scheme and the known ones
   */
  public static String require(String name) {
    if (!names().contains(name) && !ablations().contains(name)) {
      throw new IllegalArgumentException(
          "unknown scheme \""
              + name
              + "\" (schemes: "
              + String.join(", ", names())
              + "; "
              + WITHOUT
              + "CHANGE leaves out one of rpc's changes: "
              + Arrays.stream(RpcChange.values())
                  .map(RpcChange::id)
                  .collect(Collectors.joining(", "))
              + ")");
    }
    return name;
  }

  /** {@code options} with {@code own} where they leave the wave rule to the scheme. */
  private static SchemeOptions waves(SchemeOptions options, WaveRule own) {
    return options.waves() == null ? options.withWaves(own) : options;
  }

  /**
   * A new policy instance for one run.
   *
   * @throws IllegalArgumentException naming the scheme and the known ones when {@code name} is
   *     unknown
   */
  public static SchedulingPolicy create(String name, SchemeOptions options) {
    double delta = options.starvationThreshold();
    if (require(name).startsWith(WITHOUT)) {
      RpcChange without = RpcChange.of(name.substring(WITHOUT.length()));
      return new SrtfPolicy(
          name,
          new RpcPlanner(!options.placeAll(), EnumSet.of(without)),
          without == RpcChange.RECEIVER_RATES ? new Algorithm3Rates() : new ReceiverDrivenRates(),
          waves(options, WaveRule.WHOLE));
    }
    return switch (name) {
      case "rpc" ->
          new SrtfPolicy(
              "rpc",
              new RpcPlanner(!options.placeAll()),
              new ReceiverDrivenRates(),
              waves(options, WaveRule.WHOLE));
      case "rpc-faithful" ->
          new SrtfPolicy(
              "rpc-faithful",
              new FaithfulPlanner(new RelatedMachinesSolver(new LpFractionalPlacementSolver())),
              new Algorithm3Rates(),
              waves(options, WaveRule.PER_WAVE));
      case "fair" -> new FairPolicy(new RandomPlacement(options.seed()));
      case "varys" -> new SebfPolicy("varys", new RandomPlacement(options.seed()));
      case "neat" -> new SebfPolicy("neat", new NeatPlacement());
      case "wss" -> new WssPolicy(new RandomPlacement(options.seed()), false);
      case "wss-priority" -> new WssPolicy(new RandomPlacement(options.seed()), true);
      case "fca" -> new FcaPolicy(new RandomPlacement(options.seed()));
      case "aalo" -> new AaloPolicy(new RandomPlacement(options.seed()), DclasQueues.DEFAULT);
      case "philae" -> new PhilaePolicy(new RandomPlacement(options.seed()), DclasQueues.DEFAULT);
      case "rapier" ->
          new RapierPolicy(
              "rapier",
              new RandomPlacement(options.seed()),
              new MinimumCct(new PathSplitLp()),
              options.seed(),
              delta);
      case "scheduling-only" ->
          new RapierPolicy(
              "scheduling-only", new RandomPlacement(options.seed()), null, options.seed(), delta);
      case "routing-only" ->
          new RoutedFairPolicy(
              "routing-only", new RandomPlacement(options.seed()), true, options.seed());
      case "ecmp-fair" ->
          new RoutedFairPolicy(
              "ecmp-fair", new RandomPlacement(options.seed()), false, options.seed());
      default -> throw new AssertionError(name); // require() knows every name
    };
  }
}
