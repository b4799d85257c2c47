package org.coflowshuffle.coordinator.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Entry point of {@code bin/coflow}: dispatches {@code coflow NAME ARGS...} to the {@link Command}
 * registered under NAME. Only {@link #main} calls {@link System#exit}; everything else returns exit
 * statuses so that tests run commands in-process.
 */
public final class CoflowCli {

  private final Map<String, Command> commands;

  /** A dispatcher over the given commands, listed by {@code help} in the map's order. */
  public CoflowCli(Map<String, Command> commands) {
    this.commands = Collections.unmodifiableMap(new LinkedHashMap<>(commands));
  }

  /**
   * The project's subcommands: this module's, then those other modules contribute through a {@link
   * CommandProvider} on the classpath. {@code help} is built in.
   */
  public static Map<String, Command> defaultCommands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    commands.put("solve", new SolveCommand());
    commands.put("compare", new CompareCommand());
    for (CommandProvider provider : ServiceLoader.load(CommandProvider.class)) {
      commands.putAll(provider.commands());
    }
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
      return help(rest, out, err, in);
    }
    Command command = commands.get(name);
    if (command == null) {
      err.println(
          "coflow: unknown command \""
              + name
              + "\" (commands: help, "
              + String.join(", ", commands.keySet())
              + ")");
      return Command.USAGE;
    }
    return command.run(rest, out, err, in);
  }

  /** {@code coflow help} lists the commands; {@code coflow help NAME} is {@code NAME --help}. */
  private int help(String[] args, PrintStream out, PrintStream err, InputStream in) {
    if (args.length > 0) {
      Command command = commands.get(args[0]);
      if (command == null) {
        err.println("coflow help: unknown command \"" + args[0] + "\"");
        return Command.USAGE;
      }
      return command.run(new String[] {"--help"}, out, err, in);
    }
    out.println("usage: coflow COMMAND [ARGS...]");
    out.println();
    out.println("commands:");
    out.printf("  %-8s %s%n", "help", "list the commands; 'coflow help COMMAND' shows its usage");
    for (Map.Entry<String, Command> e : commands.entrySet()) {
      out.printf("  %-8s %s%n", e.getKey(), e.getValue().summary());
    }
    return 0;
  }
}
