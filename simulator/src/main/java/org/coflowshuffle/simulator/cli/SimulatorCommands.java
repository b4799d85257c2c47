/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.coflowshuffle.coordinator.cli.Command;
import org.coflowshuffle.coordinator.cli.CommandProvider;

/** The simulator's subcommands of {@code bin/coflow}: {@code simulate} and {@code bench}. */
public final class SimulatorCommands implements CommandProvider {

  @Override
  public Map<String, Command> commands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    commands.put("simulate", new SimulateCommand());
    commands.put("bench decision", new BenchCommand());
    return commands;
  }
}
