package org.coflowshuffle.core.model;

import java.util.List;

/**
 * A whole scheduling problem: the cluster and every coflow that will arrive. Hosts are referred to
 * by their index in {@link #hosts()} everywhere in the core.
 */
public record Instance(List<Host> hosts, List<Coflow> coflows) {

  public Instance {
    hosts = List.copyOf(hosts);
    coflows = List.copyOf(coflows);
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
}
