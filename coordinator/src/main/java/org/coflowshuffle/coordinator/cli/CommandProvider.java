/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.cli;

import java.util.Map;

/**
 * Contributes subcommands to {@code bin/coflow} from another module (the simulator, later the Spark
 * and YARN tooling), found through {@link java.util.ServiceLoader}: a module lists its
 * implementation in {@code META-INF/services/org.coflowshuffle.coordinator.cli.CommandProvider}.
 * This keeps the dependency pointing from those modules to the coordinator, never back.
 */
public interface CommandProvider {

  /** The commands by name, in the order {@code coflow help} should list them. */
  Map<String, Command> commands();
}
