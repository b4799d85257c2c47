/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.policy;

/**
 * A coflow scheduling scheme: decides where reducers run and how fast each flow goes. The same
 * objects drive the flow-level simulator and the live coordinator, so a scheme exists once.
 *
 * <p>Threading: an instance serves one cluster and is called from one thread at a time. It may keep
 * state between calls (for example, a placement made when a coflow arrived); a new run needs a new
 * instance.
 */
public interface SchedulingPolicy {

  /** The scheme's name, as chosen on the command line. */
  String name();

  /**
   * Decides placement and rates for every active coflow. Called on every coflow arrival, flow
   * completion and requested wake-up. The returned rates must respect every host's incoming and
   * outgoing bandwidth and every host's reducer slots.
   */
  Decision decide(ClusterView view);
}
