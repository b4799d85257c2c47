/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One configuration key, declared once: its name, the type of its value, the default, what it does,
 * and the release that added it. Reading it is the only way a value is parsed, so every invalid
 * value fails the same way: an {@link IllegalArgumentException} naming the key and the value.
 * {@link ConfigDocs} renders {@code docs/configuration.md} from these declarations.
 *
 * @param <T> the value's type
 */
public final class ConfigKey<T> {

  private final String name;
  private final String type;
  private final String defaultValue;
  private final String doc;
  private final String since;
  private final Function<String, T> parser;

  private ConfigKey(
      String name,
      String type,
      String defaultValue,
      String doc,
      String since,
      Function<String, T> parser) {
    this.name = name;
    this.type = type;
    this.defaultValue = defaultValue;
    this.doc = doc;
    this.since = since;
    this.parser = parser;
  }

  /**
   * A key whose value {@code parser} reads and checks, throwing {@link IllegalArgumentException}
   * with a message about the value alone (the key is added).
   *
   * @param defaultValue the default as a user would write it; null for "not set"
   */
  public static <T> ConfigKey<T> of(
      String name,
      String type,
      String defaultValue,
      String since,
      String doc,
      Function<String, T> parser) {
    return new ConfigKey<>(name, type, defaultValue, doc, since, parser);
  }

  /** An integer in {@code [min, max]}. */
  public static ConfigKey<Integer> integer(
      String name, int defaultValue, int min, int max, String since, String doc) {
    return of(
        name,
        "int",
        String.valueOf(defaultValue),
        since,
        doc,
        s -> {
          int v = Integer.parseInt(s.trim());
          if (v < min || v > max) {
            throw new IllegalArgumentException("must be in [" + min + ", " + max + "]");
          }
          return v;
        });
  }

  /** {@code true} or {@code false}. */
  public static ConfigKey<Boolean> bool(
      String name, boolean defaultValue, String since, String doc) {
    return of(
        name,
        "boolean",
        String.valueOf(defaultValue),
        since,
        doc,
        s -> {
          String v = s.trim().toLowerCase(Locale.ROOT);
          if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("must be true or false");
          }
          return Boolean.parseBoolean(v);
        });
  }

  /** A size in bytes such as {@code 125m} (binary units: k, m, g, t), more than 0. */
  public static ConfigKey<Long> size(String name, String defaultValue, String since, String doc) {
    return of(name, "size", defaultValue, since, doc, ConfigKey::bytes);
  }

  /** A duration such as {@code 30s}, {@code 500ms} or {@code 2min}, in seconds, more than 0. */
  public static ConfigKey<Double> seconds(
      String name, String defaultValue, String since, String doc) {
    return of(name, "duration", defaultValue, since, doc, ConfigKey::duration);
  }

  public String name() {
    return name;
  }

  public String type() {
    return type;
  }

  /** The default as written, or null when the key is unset by default. */
  public String defaultValue() {
    return defaultValue;
  }

  public String doc() {
    return doc;
  }

  public String since() {
    return since;
  }

  /**
   * Checks a value given in code (not read from settings) as if it had been read.
   *
   * @throws IllegalArgumentException naming this key and the value when it is invalid
   */
  public void check(T value) {
    read(Map.of(name, String.valueOf(value)));
  }

  /**
   * The value in {@code settings}, else the default (null when there is none).
   *
   * @throws IllegalArgumentException naming this key and the value when it is invalid
   */
  public T read(Map<String, String> settings) {
    String raw = settings.getOrDefault(name, defaultValue);
    if (raw == null) {
      return null;
    }
    try {
      return parser.apply(raw);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(name + "=" + raw + ": " + e.getMessage(), e);
    }
  }

  /** A size such as {@code 62m} in bytes (binary units), more than 0. */
  public static long bytes(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    int end = v.length();
    while (end > 0 && Character.isLetter(v.charAt(end - 1))) {
      end--;
    }
    long number = Long.parseLong(v.substring(0, end).trim());
    long unit =
        switch (v.substring(end)) {
          case "", "b" -> 1L;
          case "k", "kb" -> 1L << 10;
          case "m", "mb" -> 1L << 20;
          case "g", "gb" -> 1L << 30;
          case "t", "tb" -> 1L << 40;
          default ->
              throw new IllegalArgumentException("unknown unit \"" + v.substring(end) + "\"");
        };
    if (number <= 0) {
      throw new IllegalArgumentException("must be more than 0");
    }
    return Math.multiplyExact(number, unit);
  }

  /** {@code host=size,...} as bytes per second by host; blank for none. */
  public static Map<String, Double> hostSizes(String list) {
    Map<String, Double> hosts = new LinkedHashMap<>();
    for (String item : list.isBlank() ? new String[0] : list.split(",")) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected host=size, got \"" + item.trim() + "\"");
      }
      hosts.put(item.substring(0, eq).trim(), (double) bytes(item.substring(eq + 1)));
    }
    return Map.copyOf(hosts);
  }

  static double duration(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    int end = v.length();
    while (end > 0 && Character.isLetter(v.charAt(end - 1))) {
      end--;
    }
    double number = Double.parseDouble(v.substring(0, end).trim());
    double unit =
        switch (v.substring(end)) {
          case "ms" -> 1e-3;
          case "", "s" -> 1.0;
          case "min", "m" -> 60.0;
          case "h" -> 3600.0;
          default ->
              throw new IllegalArgumentException("unknown unit \"" + v.substring(end) + "\"");
        };
    if (!(number > 0) || Double.isInfinite(number)) {
      throw new IllegalArgumentException("must be more than 0");
    }
    return number * unit;
  }
}
