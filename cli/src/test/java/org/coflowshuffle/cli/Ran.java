/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What one run of a command printed, for tests: its exit status, standard output and error. */
public record Ran(int status, String out, String err) {

  /** A command's entry point: {@link Command#run} or {@link CoflowCli#run}. */
  public interface Main {
    int run(String[] args, PrintStream out, PrintStream err, InputStream in);
  }

  public static Ran of(Main main, InputStream in, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            in);
    return new Ran(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  public static Ran of(Main main, String... args) {
    return of(main, InputStream.nullInputStream(), args);
  }
}
