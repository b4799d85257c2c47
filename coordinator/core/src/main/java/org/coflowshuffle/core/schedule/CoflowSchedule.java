/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.schedule;

/**
 * How one coflow was served.
 *
 * @param coflow index of the coflow in the instance
 * @param arrival its arrival time
 * @param finish when its last flow finished (its arrival, or the time its last reducer was placed,
 *     when nothing crossed the network)
 * @param hostOf host of each reducer
 */
public record CoflowSchedule(int coflow, double arrival, double finish, int[] hostOf) {

  /** Coflow completion time. */
  public double cct() {
    return finish - arrival;
  }
}
