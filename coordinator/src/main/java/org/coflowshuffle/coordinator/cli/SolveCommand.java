/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.coflowshuffle.coordinator.io.InstanceFormatException;
import org.coflowshuffle.coordinator.io.InstanceReader;
import org.coflowshuffle.coordinator.io.ScheduleWriter;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.policy.SchedulingPolicy;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * {@code coflow solve [--scheme NAME] [--seed N] [--delta SECONDS] [--work-conserving] FILE}: reads
 * one instance (FILE, or standard input for {@code -}), runs one scheme on it and prints the
 * schedule JSON of {@code docs/coflow-instance.md}.
 *
 * <p>Arguments are checked before the file is read, and the schedule is rendered in full before
 * anything is printed, so a failed run prints nothing on standard output and one line on standard
 * error.
 */
public final class SolveCommand implements Command {

  static final String USAGE_LINE =
      "coflow solve [--scheme NAME] [--seed N] [--delta SECONDS] [--work-conserving] FILE";

  private static final String DEFAULT_SCHEME = "rpc";
  private static final String PREFIX = "coflow solve: ";

  /** Bad arguments or bad input, reported as one line with exit status 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** The parsed command line. */
  record Options(String scheme, SchemeOptions schemeOptions, String file, boolean help) {}

  @Override
  public String summary() {
    return "run one scheme on an instance file and print its schedule as JSON";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Options options;
    Instance instance;
    try {
      options = parse(args);
      if (options.help()) {
        printUsage(out);
        return 0;
      }
      instance = read(options.file(), in);
    } catch (UsageException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    SchedulingPolicy policy;
    try {
      policy = Schemes.create(options.scheme(), options.schemeOptions());
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + oneLine(e.getMessage()));
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
              + oneLine(e.getMessage()));
      return FAILURE;
    }
    out.println(json);
    out.flush();
    return 0;
  }

  static Options parse(String[] args) throws UsageException {
    String scheme = DEFAULT_SCHEME;
    long seed = SchemeOptions.defaults().seed();
    double delta = SchemeOptions.DEFAULT_STARVATION_THRESHOLD;
    boolean workConserving = false;
    String file = null;
    boolean optionsEnded = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (optionsEnded || arg.equals("-") || !arg.startsWith("-")) {
        if (file != null) {
          throw new UsageException(
              "unexpected argument \""
                  + arg
                  + "\" after FILE \""
                  + file
                  + "\"; usage: "
                  + USAGE_LINE);
        }
        file = arg;
        continue;
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      String inline = eq < 0 ? null : arg.substring(eq + 1);
      switch (name) {
        case "--" -> optionsEnded = true;
        case "-h", "--help" -> {
          return new Options(scheme, null, file, true);
        }
        case "--work-conserving" -> {
          if (inline != null) {
            throw new UsageException(
                "option --work-conserving takes no value, got \"" + arg + "\"");
          }
          workConserving = true;
        }
        case "--scheme" -> {
          scheme = inline != null ? inline : value(args, ++i, name);
          try {
            Schemes.require(scheme);
          } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
          }
        }
        case "--seed" -> seed = seed(inline != null ? inline : value(args, ++i, name));
        case "--delta" -> delta = delta(inline != null ? inline : value(args, ++i, name));
        default -> throw new UsageException("unknown option \"" + arg + "\"; usage: " + USAGE_LINE);
      }
    }
    if (file == null) {
      throw new UsageException(
          "missing instance FILE (use - for standard input); usage: " + USAGE_LINE);
    }
    return new Options(scheme, new SchemeOptions(seed, delta, workConserving), file, false);
  }

  private static String value(String[] args, int i, String name) throws UsageException {
    if (i >= args.length) {
      throw new UsageException("option " + name + " needs a value");
    }
    return args[i];
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
      throw new UsageException("cannot read " + label(file) + ": " + oneLine(e.getMessage()));
    }
  }

  private static void printUsage(PrintStream out) {
    out.println("usage: " + USAGE_LINE);
    out.println();
    out.println(
        "Reads an instance (FILE, or standard input for -) and prints its schedule as JSON.");
    out.println(
        "  --scheme NAME       one of "
            + String.join(", ", Schemes.names())
            + " (default "
            + DEFAULT_SCHEME
            + ")");
    out.println(
        "  --seed N            seed of every random choice (default "
            + SchemeOptions.defaults().seed()
            + ")");
    out.println(
        "  --delta SECONDS     starvation threshold (default "
            + SchemeOptions.DEFAULT_STARVATION_THRESHOLD
            + ")");
    out.println("  --work-conserving   give idle bandwidth to waiting flows");
  }

  static String label(String file) {
    return file.equals("-") ? "<stdin>" : file;
  }

  static String oneLine(String s) {
    return s == null ? "(no message)" : s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
