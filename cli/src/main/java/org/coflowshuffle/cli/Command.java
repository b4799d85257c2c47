/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * One subcommand of {@code bin/coflow}, registered by name in {@link CoflowCli}.
 *
 * <p>Contract: {@link #run} never calls {@link System#exit} and never touches {@code System.out},
 * {@code System.err} or {@code System.in} directly, so tests can drive it with buffers. It returns
 * the process exit status: 0 on success, 2 for bad arguments or bad input (after printing exactly
 * one line to {@code err} and nothing to {@code out}), 1 for any other failure.
 */
public interface Command {

  /** Exit status for bad arguments or bad input. */
  int USAGE = 2;

  /** Exit status for a failure that is not the caller's fault. */
  int FAILURE = 1;

  /**
   * Runs the command.
   *
   * @param args the arguments after the subcommand's name
   * @param out standard output: the command's result and nothing else
   * @param err standard error: diagnostics
   * @param in standard input, for commands that read {@code -}
   * @return the exit status
   */
  int run(String[] args, PrintStream out, PrintStream err, InputStream in);

  /** A message on one line, as the error stream's one line needs it. */
  static String oneLine(String message) {
    return message == null ? "(no message)" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** Its options, declared once: its help and the README's command list come from them. */
  CommandOptions options();

  /** One line for {@code coflow help}. */
  default String summary() {
    return options().summary();
  }
}
