/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.coordinator.CoordinatorBenchCommand;
import org.coflowshuffle.cli.coordinator.CoordinatorCommand;
import org.coflowshuffle.cli.coordinator.ScaleBenchCommand;
import org.coflowshuffle.cli.fetch.FetchBenchCommand;
import org.coflowshuffle.cli.simulate.DecisionBenchCommand;
import org.coflowshuffle.cli.simulate.SimulateCommand;
import org.coflowshuffle.cli.solve.CompareCommand;
import org.coflowshuffle.cli.solve.SolveCommand;
import org.coflowshuffle.cli.spark.FaultsBenchCommand;
import org.coflowshuffle.cli.spark.HistoryCommand;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.TerasortYarnCommand;
import org.coflowshuffle.cli.testbed.TestbedCommands;

/**
 * Entry point of {@code bin/coflow}: dispatches {@code coflow NAME ARGS...} to the {@link Command}
 * registered under NAME, or {@code coflow NAME KIND ARGS...} to one registered under "NAME KIND"
 * (so that modules each add a kind of {@code bench}). Only {@link #main} calls {@link System#exit};
 * everything else returns exit statuses so that tests run commands in-process.
 */
public final class CoflowCli {

  private final Map<String, Command> commands;

  /** A dispatcher over the given commands, by their names, listed by {@code help} in this order. */
  public CoflowCli(List<Command> commands) {
    Map<String, Command> byName = new LinkedHashMap<>();
    for (Command c : commands) {
      if (byName.put(c.options().command(), c) != null) {
        throw new IllegalArgumentException("two commands are named " + c.options().command());
      }
    }
    this.commands = Collections.unmodifiableMap(byName);
  }

  /** Every command of {@code bin/coflow}; {@code help} is built in. */
  public static List<Command> defaultCommands() {
    List<Command> commands = new ArrayList<>();
    commands.add(new SolveCommand());
    commands.add(new CompareCommand());
    commands.add(new SimulateCommand());
    commands.add(new DecisionBenchCommand());
    commands.add(new CoordinatorCommand());
    commands.add(new CoordinatorBenchCommand());
    commands.add(new ScaleBenchCommand());
    commands.add(new TerasortCommand());
    commands.add(new TerasortYarnCommand());
    commands.add(new FaultsBenchCommand());
    commands.add(new HistoryCommand());
    commands.add(new FetchBenchCommand());
    commands.addAll(TestbedCommands.all());
    return commands;
  }

  public static void main(String[] args) {
    int status = new CoflowCli(defaultCommands()).run(args, System.out, System.err, System.in);
    System.out.flush();
    System.exit(status);
  }

  /** Runs {@code coflow ARGS...} and returns its exit status. */
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    if (args.length == 0) {
      err.println("coflow: missing command; run 'coflow help' for the list");
      return Command.USAGE;
    }
    String name = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (name.equals("help") || name.equals("--help") || name.equals("-h")) {
      return help(rest, out, err);
    }
    if (rest.length > 0 && commands.containsKey(name + " " + rest[0])) {
      return run(
          commands.get(name + " " + rest[0]),
          Arrays.copyOfRange(rest, 1, rest.length),
          out,
          err,
          in);
    }
    Command command = commands.get(name);
    List<String> kinds = kindsOf(name);
    if (command == null && !kinds.isEmpty()) {
      err.println(
          "coflow "
              + name
              + ": expected one of "
              + String.join(", ", kinds)
              + (rest.length > 0 ? ", got \"" + rest[0] + "\"" : ""));
      return Command.USAGE;
    }
    if (command == null) {
      err.println(
          "coflow: unknown command \""
              + name
              + "\" (commands: help, "
              + String.join(", ", commands.keySet())
              + ")");
      return Command.USAGE;
    }
    return run(command, rest, out, err, in);
  }

  /** Runs {@code command}, or prints its help when asked for ({@code -h} or {@code --help}). */
  private static int run(
      Command command, String[] args, PrintStream out, PrintStream err, InputStream in) {
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      if (arg.equals("--help") || arg.equals("-h")) {
        command.options().printHelp(out);
        return 0;
      }
    }
    return command.run(args, out, err, in);
  }

  /**
   * Every command with its options, as the README lists them: one {@code bin/coflow NAME OPTIONS}
   * per command, wrapped at 100 columns. A test keeps the README equal to it.
   */
  public String commandList() {
    StringBuilder b = new StringBuilder();
    for (Command c : commands.values()) {
      CommandOptions o = c.options();
      StringBuilder line = new StringBuilder("bin/coflow " + o.command());
      for (String word : o.synopsisParts()) {
        if (line.length() + 1 + word.length() > 100) {
          b.append(line).append('\n');
          line = new StringBuilder(" ".repeat(WRAP_INDENT - 1));
        }
        line.append(' ').append(word);
      }
      b.append(line).append('\n');
    }
    return b.toString();
  }

  private static final int WRAP_INDENT = 20;

  /** The KINDs registered as "NAME KIND". */
  private List<String> kindsOf(String name) {
    return commands.keySet().stream()
        .filter(k -> k.startsWith(name + " "))
        .map(k -> k.substring(name.length() + 1))
        .toList();
  }

  /** {@code coflow help} lists the commands; {@code coflow help NAME} is {@code NAME --help}. */
  private int help(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0) {
      String key = args.length > 1 ? args[0] + " " + args[1] : args[0];
      Command command = commands.getOrDefault(key, commands.get(args[0]));
      if (command == null) {
        err.println("coflow help: unknown command \"" + args[0] + "\"");
        return Command.USAGE;
      }
      command.options().printHelp(out);
      return 0;
    }
    out.println("usage: coflow COMMAND [ARGS...]");
    out.println();
    out.println("commands:");
    int width = commands.keySet().stream().mapToInt(String::length).max().orElse(8);
    String line = "  %-" + width + "s %s%n";
    out.printf(line, "help", "list the commands; 'coflow help COMMAND' shows its usage");
    for (Map.Entry<String, Command> e : commands.entrySet()) {
      out.printf(line, e.getKey(), e.getValue().summary());
    }
    return 0;
  }
}
