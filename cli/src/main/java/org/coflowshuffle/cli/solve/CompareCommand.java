/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.solve;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * {@code coflow compare}: every scheme on one instance, side by side, each schedule checked for
 * feasibility first. The human-readable counterpart of {@code solve}; its options but {@code
 * --scheme}, the same one-line errors.
 */
public final class CompareCommand implements Command {

  private static final String PREFIX = "coflow compare: ";

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "compare", "run every scheme on an instance file and print their CCTs side by side")
          .value("--seed", "N", SolveCommand.SEED_HELP)
          .value("--delta", "SECONDS", SolveCommand.DELTA_HELP)
          .flag("--work-conserving", SolveCommand.WORK_CONSERVING_HELP)
          .value("--waves", "RULE", SolveCommand.WAVES_HELP)
          .operand("FILE", SolveCommand.FILE_HELP);

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    SolveCommand.Options options;
    Instance instance;
    try {
      options = SolveCommand.parse(OPTIONS, args);
      instance = SolveCommand.read(options.file(), in);
    } catch (SolveCommand.UsageException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    StringBuilder table = new StringBuilder();
    table.append(String.format("%-13s %12s", "scheme", "average CCT"));
    for (var c : instance.coflows()) {
      table.append(String.format(" %10s", c.id()));
    }
    table.append('\n');
    for (String scheme : Schemes.names()) {
      Schedule s;
      try {
        s = ScheduleRunner.run(instance, Schemes.create(scheme, options.schemeOptions()));
      } catch (RuntimeException e) {
        err.println(PREFIX + "scheme " + scheme + " failed: " + Command.oneLine(e.getMessage()));
        return FAILURE;
      }
      List<String> violations = FeasibilityChecker.violations(instance, s);
      if (!violations.isEmpty()) {
        err.println(
            PREFIX + "scheme " + scheme + " gave an infeasible schedule: " + violations.get(0));
        return FAILURE;
      }
      table.append(String.format("%-13s %11.4fs", scheme, s.averageCct()));
      for (var c : s.coflows()) {
        table.append(String.format(" %9.4fs", c.cct()));
      }
      table.append('\n');
    }
    out.print(table);
    out.flush();
    return 0;
  }
}
