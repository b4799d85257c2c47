/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import java.util.ArrayList;
import java.util.List;

/**
 * The link rates of the testbed's hosts, by name: {@code homogeneous} (every host at the base
 * rate), {@code rpc-fig4} (the RPC paper's testbed, section VI-A: three senders and three
 * receivers, two receivers at half rate; 6 hosts), or {@code custom:R1,R2,...} (one rate per host,
 * Mbit/s, both ways).
 */
public final class TestbedProfile {

  private TestbedProfile() {}

  /**
   * Per host, its rate in Mbit/s (both ways).
   *
   * @throws IllegalArgumentException naming the profile when it is unknown or does not fit {@code
   *     hosts}
   */
  public static int[] rates(String profile, int hosts, int baseMbit) {
    if (hosts < 1) {
      throw new IllegalArgumentException("--hosts must be at least 1");
    }
    int[] rates = new int[hosts];
    if (profile.equals("homogeneous")) {
      java.util.Arrays.fill(rates, baseMbit);
      return rates;
    }
    if (profile.equals("rpc-fig4")) {
      if (hosts != 6) {
        throw new IllegalArgumentException(
            "profile rpc-fig4 has 6 hosts (3 senders, 3 receivers), not " + hosts);
      }
      java.util.Arrays.fill(rates, baseMbit);
      rates[4] = baseMbit / 2; // the paper's two receivers cut to half rate
      rates[5] = baseMbit / 2;
      return rates;
    }
    if (profile.startsWith("custom:")) {
      List<Integer> list = new ArrayList<>();
      for (String s : profile.substring(7).split(",")) {
        try {
          list.add(Integer.parseInt(s.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "profile " + profile + ": \"" + s + "\" is not Mbit/s");
        }
      }
      if (list.size() != hosts || list.stream().anyMatch(r -> r <= 0)) {
        throw new IllegalArgumentException(
            "profile " + profile + ": expected " + hosts + " positive rates, one per host");
      }
      return list.stream().mapToInt(Integer::intValue).toArray();
    }
    throw new IllegalArgumentException(
        "unknown profile \"" + profile + "\" (profiles: homogeneous, rpc-fig4, custom:R1,R2,...)");
  }
}
