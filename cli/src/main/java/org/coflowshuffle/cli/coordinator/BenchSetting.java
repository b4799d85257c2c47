/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import java.net.InetSocketAddress;
import org.coflowshuffle.cli.Flags;

/**
 * The options of {@code bench coordinator}; {@code connect} and {@code http} are null for a
 * coordinator here.
 */
record BenchSetting(
    int hosts,
    int coflows,
    int maps,
    int reducers,
    int fetchers,
    int events,
    int pacedRate,
    int warmupSeconds,
    int pacedSeconds,
    int completionEvery,
    String scheme,
    InetSocketAddress connect,
    InetSocketAddress http,
    boolean direct,
    int decisions,
    boolean json) {

  static BenchSetting parse(Flags f) {
    InetSocketAddress connect =
        f.has("--connect") ? address("--connect", f.string("--connect", "")) : null;
    InetSocketAddress http = f.has("--http") ? address("--http", f.string("--http", "")) : null;
    if ((connect == null) != (http == null)) {
      throw new IllegalArgumentException("--connect and --http go together");
    }
    if (connect != null && f.has("--direct")) {
      throw new IllegalArgumentException("--direct times a coordinator here, not --connect");
    }
    return new BenchSetting(
        f.positiveInt("--hosts", 100),
        f.positiveInt("--coflows", 100),
        f.positiveInt("--maps", 10),
        f.positiveInt("--reducers", 10),
        f.positiveInt("--fetchers", 4),
        f.positiveInt("--events", 200_000),
        f.positiveInt("--paced-rate", 2000),
        f.nonNegativeInt("--warmup-seconds", 10),
        f.positiveInt("--paced-seconds", 5),
        f.positiveInt("--completion-every", 10),
        f.string("--scheme", "rpc"),
        connect,
        http,
        f.has("--direct"),
        f.positiveInt("--decisions", 1000),
        f.has("--json"));
  }

  /** HOST:PORT as an address; the flag's name in the error. */
  private static InetSocketAddress address(String flag, String value) {
    int colon = value.lastIndexOf(':');
    try {
      if (colon > 0) {
        return new InetSocketAddress(
            value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
      }
    } catch (IllegalArgumentException e) {
      // falls through to the one message below
    }
    throw new IllegalArgumentException(flag + " wants HOST:PORT, got \"" + value + "\"");
  }
}
