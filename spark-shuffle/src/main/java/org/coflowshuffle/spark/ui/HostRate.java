/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

/**
 * One machine's traffic for one coflow at one moment, as the driver sampled the coordinator: what
 * the rates planned through its links against what they delivered. The delivered rate over a span
 * is the difference of two samples' bytes over their times.
 *
 * @param atMillis when, epoch milliseconds
 * @param host the machine
 * @param plannedIn the rate planned into it then, bytes per second
 * @param plannedOut the rate planned out of it then
 * @param deliveredIn bytes its flows had delivered into it so far
 * @param deliveredOut bytes they had delivered out of it so far
 */
public record HostRate(
    long atMillis,
    String host,
    double plannedIn,
    double plannedOut,
    long deliveredIn,
    long deliveredOut) {}
