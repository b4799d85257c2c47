/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

/**
 * One testbed host and the rates of its link, megabits per second (10^6 bits) each way.
 *
 * @param name host name, resolvable inside every host's namespace
 * @param namespace its network namespace
 * @param address its IPv4 address on the testbed bridge
 * @param inMbit rate into the host
 * @param outMbit rate out of the host
 */
public record HostLink(String name, String namespace, String address, int inMbit, int outMbit) {

  public HostLink {
    if (inMbit <= 0 || outMbit <= 0) {
      throw new IllegalArgumentException(name + ": link rates must be > 0 Mbit/s");
    }
  }
}
