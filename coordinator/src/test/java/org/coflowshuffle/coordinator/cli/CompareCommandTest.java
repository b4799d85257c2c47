package org.coflowshuffle.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.testing.Examples;
import org.junit.jupiter.api.Test;

/** {@code coflow compare} on the paper's Fig. 1 and on bad input. */
class CompareCommandTest {

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new CompareCommand()
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
    return new String[] {
      String.valueOf(status),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void printsEverySchemeWithRpcAtTheOptimum() {
    String[] r = run(Examples.fig1().toString());
    assertEquals("0", r[0], r[2]);
    String[] lines = r[1].strip().split("\n");
    assertEquals(1 + Schemes.names().size(), lines.length, r[1]);
    assertTrue(lines[1].matches("rpc\\s+2\\.2500s\\s+1\\.5000s\\s+3\\.0000s"), lines[1]);
    assertTrue(r[2].isEmpty(), r[2]);
  }

  @Test
  void badInputIsOneLineAndNothingOnStdout() {
    String[] r = run("/no/such/file.json");
    assertEquals("2", r[0]);
    assertTrue(r[1].isEmpty());
    assertEquals(1, r[2].strip().split("\n").length);
    assertTrue(r[2].startsWith("coflow compare: cannot read"), r[2]);
  }
}
