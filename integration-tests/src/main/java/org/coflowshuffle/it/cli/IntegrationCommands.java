/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.coflowshuffle.coordinator.cli.Command;
import org.coflowshuffle.coordinator.cli.CommandProvider;

/**
 * The commands of {@code bin/coflow} that run real Spark parts: {@code terasort}, {@code bench
 * fetch}, {@code bench terasort-yarn}, {@code testbed ...}.
 */
public final class IntegrationCommands implements CommandProvider {

  @Override
  public Map<String, Command> commands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    commands.put("terasort", new TerasortCommand());
    commands.put("bench fetch", new org.coflowshuffle.it.bench.FetchBenchCommand());
    commands.put("bench terasort-yarn", new TerasortYarnCommand());
    commands.putAll(org.coflowshuffle.it.testbed.TestbedCommands.all());
    return commands;
  }
}
