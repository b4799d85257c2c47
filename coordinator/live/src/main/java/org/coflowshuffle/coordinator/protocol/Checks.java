/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

/** The field checks messages share; each failure names the field. */
final class Checks {

  private Checks() {}

  static void name(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must be a non-empty string");
    }
  }

  static void notNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + value);
    }
  }

  static void notNegative(String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(field + " must be a finite number >= 0, got " + value);
    }
  }

  static <T> T present(String field, T value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }
}
