/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.placement;

/**
 * A solution of the relaxation (6): reducer n sits on host j with fraction {@code x[n][j]}, each
 * row summing to 1, and no host's fractional load exceeds {@code alpha}. Only pairs with {@code
 * time[n][j] <= alpha} carry a positive fraction.
 *
 * <p>The arrays are owned by this record and never modified after construction.
 */
public record FractionalPlacement(double alpha, double[][] x) {}
