/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.model;

import java.util.List;

/**
 * A whole scheduling problem: the cluster, the network between its hosts and every coflow that will
 * arrive. Hosts are referred to by their index in {@link #hosts()} everywhere in the core.
 */
public record Instance(List<Host> hosts, List<Coflow> coflows, Fabric fabric) {

  public Instance {
    hosts = List.copyOf(hosts);
    coflows = List.copyOf(coflows);
    if (fabric.hosts() != hosts.size()) {
      throw new IllegalArgumentException(
          "fabric " + fabric.name() + " has " + fabric.hosts() + " hosts, not " + hosts.size());
    }
    for (Coflow c : coflows) {
      for (Flow f : c.flows()) {
        if (f.src() >= hosts.size()) {
          throw new IllegalArgumentException(
              "coflow " + c.id() + ": flow src index " + f.src() + " is not a host");
        }
      }
      for (Reducer r : c.reducers()) {
        if (r.pinnedHost() >= hosts.size()) {
          throw new IllegalArgumentException(
              "reducer " + r.id() + ": pinnedHost index " + r.pinnedHost() + " is not a host");
        }
      }
    }
  }

  /** An instance on one non-blocking switch ({@link Fabric#bigSwitch}). */
  public Instance(List<Host> hosts, List<Coflow> coflows) {
    this(hosts, coflows, Fabric.bigSwitch(hosts.size()));
  }
}
