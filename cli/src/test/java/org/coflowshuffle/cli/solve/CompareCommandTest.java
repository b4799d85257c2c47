/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.coflowshuffle.cli.Ran;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.testing.Examples;
import org.junit.jupiter.api.Test;

/** {@code coflow compare} on the paper's Fig. 1 and on bad input. */
class CompareCommandTest {

  private static Ran run(String... args) {
    return Ran.of(new CompareCommand()::run, args);
  }

  @Test
  void printsEverySchemeWithRpcAtTheOptimum() {
    Ran r = run(Examples.fig1().toString());
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(1 + Schemes.names().size(), lines.length, r.out());
    assertTrue(lines[1].matches("rpc\\s+2\\.2500s\\s+1\\.5000s\\s+3\\.0000s"), lines[1]);
    assertTrue(r.err().isEmpty(), r.err());
  }

  @Test
  void badInputIsOneLineAndNothingOnStdout() {
    Ran r = run("/no/such/file.json");
    assertEquals(2, r.status());
    assertTrue(r.out().isEmpty());
    assertEquals(1, r.err().strip().split("\n").length);
    assertTrue(r.err().startsWith("coflow compare: cannot read"), r.err());
  }
}
