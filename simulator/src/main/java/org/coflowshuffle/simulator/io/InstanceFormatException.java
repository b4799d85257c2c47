/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.io;

/**
 * An instance document that cannot be turned into an {@link org.coflowshuffle.core.model.Instance}.
 * The message is one line that names the JSON path and the offending value, e.g. {@code
 * coflows[0].flows[2].src: unknown host "S9"}, so a command line can print it as it is.
 */
public final class InstanceFormatException extends Exception {

  private static final long serialVersionUID = 1L;

  /** The JSON path of the offending element, or {@code null} when the text is not JSON at all. */
  private final String path;

  InstanceFormatException(String path, String problem) {
    super(path == null ? problem : path + ": " + problem);
    this.path = path;
  }

  /** The JSON path of the offending element, e.g. {@code hosts[3].id}; null for malformed JSON. */
  public String path() {
    return path;
  }
}
