/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.solve;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.policy.WaveRule;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.io.InstanceFormatException;
import org.coflowshuffle.simulator.io.InstanceReader;
import org.coflowshuffle.simulator.io.ScheduleWriter;

/**
 * {@code coflow solve}: reads one instance (a file, or standard input for {@code -}), runs one
 * scheme on it and prints the schedule JSON of {@code docs/coflow-instance.md}. Its options are
 * {@link #OPTIONS}.
 *
 * <p>Arguments are checked before the file is read, and the schedule is rendered in full before
 * anything is printed, so a failed run prints nothing on standard output and one line on standard
 * error.
 */
public final class SolveCommand implements Command {

  private static final String DEFAULT_SCHEME = "rpc";
  private static final String PREFIX = "coflow solve: ";

  static final String SEED_HELP =
      "seed of every random choice (default " + SchemeOptions.defaults().seed() + ")";
  static final String DELTA_HELP =
      "starvation threshold (default " + SchemeOptions.DEFAULT_STARVATION_THRESHOLD + ")";
  static final String WORK_CONSERVING_HELP = "give idle bandwidth to waiting flows";
  static final String WAVES_HELP =
      "how a coflow whose reducers do not all fit the free slots is scheduled: whole, last-wave or"
          + " per-wave (default whole for rpc, per-wave for rpc-faithful)";
  static final String FILE_HELP = "the instance (docs/coflow-instance.md); - for standard input";

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "solve", "run one scheme on an instance file and print its schedule as JSON")
          .value("--scheme", "NAME", schemeHelp(DEFAULT_SCHEME))
          .value("--seed", "N", SEED_HELP)
          .value("--delta", "SECONDS", DELTA_HELP)
          .flag("--work-conserving", WORK_CONSERVING_HELP)
          .value("--waves", "RULE", WAVES_HELP)
          .operand("FILE", FILE_HELP);

  /** Bad arguments or bad input, reported as one line with exit status 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** The parsed command line. */
  record Options(String scheme, SchemeOptions schemeOptions, String file) {}

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Options options;
    Instance instance;
    try {
      options = parse(args);
      instance = read(options.file(), in);
    } catch (UsageException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    SchedulingPolicy policy;
    try {
      policy = Schemes.create(options.scheme(), options.schemeOptions());
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + Command.oneLine(e.getMessage()));
      return USAGE;
    }
    String json;
    try {
      Schedule schedule = ScheduleRunner.run(instance, policy);
      json = ScheduleWriter.write(schedule);
    } catch (RuntimeException e) {
      err.println(
          PREFIX
              + "scheme "
              + options.scheme()
              + " failed on "
              + label(options.file())
              + ": "
              + e.getClass().getSimpleName()
              + ": "
              + Command.oneLine(e.getMessage()));
      return FAILURE;
    }
    out.println(json);
    out.flush();
    return 0;
  }

  static Options parse(String[] args) throws UsageException {
    return parse(OPTIONS, args);
  }

  /**
   * The options of {@code solve}, or of a command that takes some of them, e.g. {@code compare}.
   */
  static Options parse(CommandOptions declared, String[] args) throws UsageException {
    Flags f;
    try {
      f = declared.parse(args);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    String scheme = f.string("--scheme", DEFAULT_SCHEME);
    try {
      Schemes.require(scheme);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    long seed = f.has("--seed") ? seed(f.string("--seed", "")) : seed();
    double delta = f.has("--delta") ? delta(f.string("--delta", "")) : delta();
    WaveRule waves = null; // each scheme's own
    try {
      waves = f.has("--waves") ? WaveRule.of(f.string("--waves", null)) : null;
    } catch (IllegalArgumentException e) {
      throw new UsageException("--waves: " + e.getMessage());
    }
    if (f.operand() == null) {
      throw new UsageException(
          "missing instance FILE (use - for standard input; coflow help "
              + declared.command()
              + " lists the options)");
    }
    return new Options(
        scheme,
        new SchemeOptions(seed, delta, f.has("--work-conserving"), false, waves),
        f.operand());
  }

  /** The schemes for {@code --scheme}, and which one runs without it. */
  static String schemeHelp(String fallback) {
    return "one of "
        + String.join(", ", Schemes.names())
        + " (default "
        + fallback
        + "), or rpc-without-CHANGE (docs/algorithms.md)";
  }

  private static long seed() {
    return SchemeOptions.defaults().seed();
  }

  private static double delta() {
    return SchemeOptions.DEFAULT_STARVATION_THRESHOLD;
  }

  private static long seed(String text) throws UsageException {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new UsageException("--seed: expected an integer, got \"" + text + "\"");
    }
  }

  private static double delta(String text) throws UsageException {
    double value;
    try {
      value = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      value = Double.NaN;
    }
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new UsageException("--delta: expected a number of seconds > 0, got \"" + text + "\"");
    }
    return value;
  }

  static Instance read(String file, InputStream in) throws UsageException {
    try {
      return file.equals("-") ? InstanceReader.read(in) : InstanceReader.read(Path.of(file));
    } catch (InstanceFormatException e) {
      throw new UsageException(label(file) + ": " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new UsageException("cannot read " + label(file) + ": no such file");
    } catch (AccessDeniedException e) {
      throw new UsageException("cannot read " + label(file) + ": permission denied");
    } catch (InvalidPathException e) {
      throw new UsageException("cannot read " + label(file) + ": invalid path");
    } catch (IOException e) {
      throw new UsageException(
          "cannot read " + label(file) + ": " + Command.oneLine(e.getMessage()));
    }
  }

  static String label(String file) {
    return file.equals("-") ? "<stdin>" : file;
  }
}
