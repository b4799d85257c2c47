/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Options declared once: parsed in every spelling a user types, and shown in help. */
class CommandOptionsTest {

  private static final CommandOptions OPTIONS =
      CommandOptions.of("try", "a command to try the parser on")
          .requiredValue("--workload", "fb|synthetic", "what to run")
          .value("--hosts", "N", "how many hosts")
          .flag("--json", "one JSON line")
          .operand("FILE", "an input");

  private static String error(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> OPTIONS.parse(args)).getMessage();
  }

  @Test
  void valuesComeSeparateOrAfterAnEqualsSign() {
    Flags f = OPTIONS.parse(new String[] {"--workload=fb", "--hosts", "7", "--json", "in.txt"});
    assertEquals("fb", f.string("--workload", null));
    assertEquals(7, f.positiveInt("--hosts", 1));
    assertTrue(f.has("--json"));
    assertEquals("in.txt", f.operand());
    assertEquals(9, OPTIONS.parse(new String[] {"--hosts=9"}).positiveInt("--hosts", 1));
  }

  @Test
  void theLastOfARepeatedOptionCountsAndNegativeNumbersAreValues() {
    Flags f = OPTIONS.parse(new String[] {"--hosts", "3", "--hosts", "-4"});
    assertEquals("-4", f.string("--hosts", null));
    assertFalse(f.has("--json"));
    assertNull(f.operand());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> f.positiveInt("--hosts", 1))
            .getMessage()
            .contains("--hosts: expected positive integers, got \"-4\""));
  }

  @Test
  void aDashIsAnOperandAndTwoDashesEndTheOptions() {
    assertEquals("-", OPTIONS.parse(new String[] {"-"}).operand());
    assertEquals("--json", OPTIONS.parse(new String[] {"--", "--json"}).operand());
  }

  @Test
  void mistakesAreOneLineThatNamesThem() {
    assertEquals(
        "unknown option \"--frobnicate\" (coflow help try lists the options)",
        error("--frobnicate"));
    assertEquals("option --hosts needs a value", error("--hosts"));
    assertEquals(
        "unexpected argument \"b.txt\" (coflow help try lists the options)",
        error("a.txt", "b.txt"));
    assertThrows(IllegalArgumentException.class, () -> OPTIONS.flag("--json", "again"));
  }

  @Test
  void helpAndSynopsisComeFromTheDeclarations() {
    assertEquals("--workload fb|synthetic [--hosts N] [--json] FILE", OPTIONS.synopsis());
    assertEquals(List.of("--workload", "--hosts", "--json"), OPTIONS.names());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    OPTIONS.printHelp(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String help = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(help.startsWith("usage: coflow try --workload fb|synthetic [--hosts N]"), help);
    assertTrue(help.matches("(?s).*\\R  --hosts N +how many hosts\\R.*"), help);
    assertTrue(help.matches("(?s).*\\R  FILE +an input\\R.*"), help);
  }

  @Test
  void theLauncherAnswersHelpBeforeTheCommandRuns() {
    Command failing =
        new Command() {
          @Override
          public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
            throw new AssertionError("ran with " + List.of(args));
          }

          @Override
          public CommandOptions options() {
            return OPTIONS;
          }
        };
    CoflowCli cli = new CoflowCli(List.of(failing));
    for (String[] args :
        new String[][] {{"try", "--hosts", "3", "--help"}, {"try", "-h"}, {"help", "try"}}) {
      Ran r = Ran.of(cli::run, args);
      assertEquals(0, r.status(), r.err());
      assertTrue(r.out().contains("an input"), r.out());
    }
  }
}
