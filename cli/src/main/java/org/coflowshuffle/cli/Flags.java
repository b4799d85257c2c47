/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The options of one command line as {@link CommandOptions#parse} read them, with typed getters
 * whose errors name the option and the value. Bad input is an {@link IllegalArgumentException} with
 * a one-line message, which the commands print with exit status 2.
 */
public final class Flags {

  private final Map<String, String> values;
  private final Map<String, List<String>> repeated;
  private final List<String> operands;

  /**
   * @param values the value of every option given (a switch's is {@code true}), by name
   * @param repeated every value of each repeatable option given, in order, by name
   * @param operands what followed the options, in order
   */
  Flags(Map<String, String> values, Map<String, List<String>> repeated, List<String> operands) {
    this.values = Map.copyOf(values);
    this.repeated = Map.copyOf(repeated);
    this.operands = List.copyOf(operands);
  }

  /** Every value of a repeatable option, in the order given; empty when it was not given. */
  public List<String> all(String name) {
    return repeated.getOrDefault(name, List.of());
  }

  /** The operand, e.g. the instance FILE, or null when none was given. */
  public String operand() {
    return operands.isEmpty() ? null : operands.get(0);
  }

  public boolean has(String name) {
    return values.containsKey(name) || repeated.containsKey(name);
  }

  public String string(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  public int positiveInt(String name, int fallback) {
    if (!has(name)) {
      return fallback;
    }
    int[] list = positiveInts(name);
    if (list.length != 1) {
      throw new IllegalArgumentException(
          name + ": expected one integer, got \"" + values.get(name) + "\"");
    }
    return list[0];
  }

  public int nonNegativeInt(String name, int fallback) {
    if (!has(name)) {
      return fallback;
    }
    String text = values.get(name);
    try {
      int v = Integer.parseInt(text.trim());
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + ": expected an integer of 0 or more, got \"" + text + "\"");
    }
  }

  public int[] positiveInts(String name, int... fallback) {
    if (!has(name)) {
      return fallback;
    }
    String text = values.get(name);
    try {
      int[] list =
          Arrays.stream(text.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
      if (list.length == 0 || Arrays.stream(list).anyMatch(v -> v <= 0)) {
        throw new NumberFormatException();
      }
      return list;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + ": expected positive integers, got \"" + text + "\"");
    }
  }

  public long longValue(String name, long fallback) {
    if (!has(name)) {
      return fallback;
    }
    try {
      return Long.parseLong(values.get(name).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + ": expected an integer, got \"" + values.get(name) + "\"");
    }
  }

  public double positiveDouble(String name, double fallback) {
    return number(name, fallback, false);
  }

  /** A comma-separated list of numbers > 0. */
  public double[] positiveDoubles(String name, double fallback) {
    if (!has(name)) {
      return new double[] {fallback};
    }
    String text = values.get(name);
    try {
      double[] list = Arrays.stream(text.split(",")).mapToDouble(Double::parseDouble).toArray();
      if (Arrays.stream(list).anyMatch(v -> !(v > 0) || Double.isInfinite(v))) {
        throw new NumberFormatException();
      }
      return list;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": expected numbers > 0, got \"" + text + "\"");
    }
  }

  public double nonNegativeDouble(String name, double fallback) {
    return number(name, fallback, true);
  }

  private double number(String name, double fallback, boolean zeroAllowed) {
    if (!has(name)) {
      return fallback;
    }
    double v;
    try {
      v = Double.parseDouble(values.get(name).trim());
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(zeroAllowed ? v >= 0 : v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(
          name
              + ": expected a number "
              + (zeroAllowed ? ">= 0" : "> 0")
              + ", got \""
              + values.get(name)
              + "\"");
    }
    return v;
  }

  public List<String> list(String name, String fallback) {
    return Arrays.stream(string(name, fallback).split(",")).map(String::trim).toList();
  }
}
