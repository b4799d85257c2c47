package org.coflowshuffle.core.policy;

import java.util.List;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Host;

/**
 * What a policy sees at one invocation: the time, the hosts (their full bandwidth; nothing is in
 * use between invocations, since every invocation decides all rates anew) and every active coflow
 * in arrival order. The arrays inside are fresh for each invocation and must not be modified.
 *
 * @param slotsInUse per host, reducers already pinned there whose flows are not finished
 * @param fabric the network between the hosts; a policy that cannot route sees only big switches
 */
public record ClusterView(
    double now, List<Host> hosts, List<ActiveCoflow> coflows, int[] slotsInUse, Fabric fabric) {

  /** A view of hosts on one non-blocking switch. */
  public ClusterView(double now, List<Host> hosts, List<ActiveCoflow> coflows, int[] slotsInUse) {
    this(now, hosts, coflows, slotsInUse, Fabric.bigSwitch(hosts.size()));
  }
}
