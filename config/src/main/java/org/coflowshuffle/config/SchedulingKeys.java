/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.config;

import java.util.Map;

/**
 * The keys that mean the same to the coordinator embedded in a Spark driver ({@code
 * spark.coflow.*}) and to the standalone one ({@code coflow.coordinator.*}): declared once here,
 * each under the prefix of the component that reads it, so that their names, defaults and docs
 * cannot drift apart.
 */
public final class SchedulingKeys {

  private static final String SINCE = "0.1.0";

  private SchedulingKeys() {}

  /** The paper's δ (Algorithm 1), in seconds. */
  public static ConfigKey<Double> starvationThreshold(String prefix) {
    return ConfigKey.seconds(
        prefix + "starvationThreshold",
        "60s",
        SINCE,
        "δ of Algorithm 1: a coflow that has waited this long with none of its flows moving is"
            + " served next, whatever its size.");
  }

  /** Whether bandwidth the schedule leaves idle goes to waiting coflows. */
  public static ConfigKey<Boolean> workConserving(String prefix) {
    return ConfigKey.bool(
        prefix + "workConserving",
        true,
        SINCE,
        "Hand bandwidth the schedule leaves idle to waiting coflows (the paper's Fig. 8 variant)."
            + " On by default: on real links and tasks the schedule leaves bandwidth idle that it"
            + " counted as used (docs/results.md, terasort on YARN); `false` is the paper's strict"
            + " schedule.");
  }

  /**
   * The link speed of a machine that {@link #hostBandwidth} does not name, bytes per second: fixed
   * at 125 MiB/s for a coordinator that cannot measure links.
   */
  public static ConfigKey<Long> defaultBandwidth(String prefix) {
    return ConfigKey.size(
        prefix + "defaultBandwidth",
        "125m",
        SINCE,
        "Link speed of a machine, bytes per second each way (`125m` = 125 MiB/s, about 1 Gbit/s),"
            + " unless `hostBandwidth` names it.");
  }

  /**
   * The link speed of a machine that {@link #hostBandwidth} does not name, bytes per second; unset,
   * each machine's NIC speed.
   */
  public static ConfigKey<Long> measuredBandwidth(String prefix) {
    return ConfigKey.size(
        prefix + "defaultBandwidth",
        null,
        SINCE,
        "Link speed of a machine, bytes per second each way (e.g. `125m` = 125 MiB/s, about"
            + " 1 Gbit/s), unless `hostBandwidth` names it. Unset, the speed of the NIC an"
            + " executor's address is on, as each executor reports it (10 Gbit/s where it cannot"
            + " tell; docs/spark.md).");
  }

  /** Machines whose links differ from {@link #defaultBandwidth}, bytes per second by host name. */
  public static ConfigKey<Map<String, Double>> hostBandwidth(String prefix) {
    return ConfigKey.of(
        prefix + "hostBandwidth",
        "host=size,...",
        "",
        SINCE,
        "Machines whose links differ from `defaultBandwidth`, bytes per second each way, hosts as"
            + " executors report them (e.g. `worker7=1g,10.0.0.5=62m`).",
        ConfigKey::hostSizes);
  }
}
