/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.coflowshuffle.cli.CoflowCli;
import org.coflowshuffle.cli.Ran;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.testing.Examples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SolveCommandTest {

  @TempDir Path dir;

  private static Ran solve(InputStream in, String... args) {
    return run(new String[] {"solve"}, args, in);
  }

  private static Ran run(String[] head, String[] args, InputStream in) {
    String[] all = new String[head.length + args.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(args, 0, all, head.length, args.length);
    return Ran.of(new CoflowCli(CoflowCli.defaultCommands())::run, in, all);
  }

  private static Ran solve(String... args) {
    return solve(InputStream.nullInputStream(), args);
  }

  /** Exit 2, nothing on stdout, exactly the given line on stderr. */
  private static void assertUsageError(Ran r, String line) {
    assertEquals(2, r.status(), r.err());
    assertEquals("", r.out());
    assertEquals(line + System.lineSeparator(), r.err());
  }

  @Test
  void rejectsAMissingFile() {
    Path missing = dir.resolve("nope.json");
    assertUsageError(
        solve(missing.toString()), "coflow solve: cannot read " + missing + ": no such file");
  }

  @Test
  void rejectsMalformedJson() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"hosts\": [}");
    Ran r = solve(bad.toString());
    assertEquals(2, r.status());
    assertEquals("", r.out());
    assertTrue(
        r.err().startsWith("coflow solve: " + bad + ": malformed JSON at line 1, column 12: "),
        r.err());
    assertEquals(1, r.err().lines().count(), r.err());
  }

  @Test
  void rejectsAnInvalidInstanceOnStdin() {
    String json =
        "{\"hosts\": [], \"coflows\": [{\"id\": \"C1\", \"arrival\": 0, \"reducers\": [],"
            + " \"flows\": [{\"src\": \"S9\", \"reducer\": \"r\", \"bytes\": 1}]}]}";
    assertUsageError(
        solve(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "-"),
        "coflow solve: <stdin>: coflows[0].flows[0].src: unknown host \"S9\"");
  }

  @Test
  void rejectsAnUnknownScheme() {
    assertUsageError(
        solve("--scheme", "magic", Examples.fig1().toString()),
        "coflow solve: unknown scheme \"magic\" (schemes: "
            + String.join(", ", Schemes.names())
            + "; rpc-without-CHANGE leaves out one of rpc's changes: timed-placement, candidates,"
            + " receiver-rates, slow-host-rule, early-stop)");
  }

  @Test
  void rejectsAnUnknownFlag() {
    assertUsageError(
        solve("--fast", Examples.fig1().toString()),
        "coflow solve: unknown option \"--fast\" (coflow help solve lists the options)");
  }

  @Test
  void rejectsABadSeedAndDelta() {
    assertUsageError(
        solve("--seed", "x1", "f.json"), "coflow solve: --seed: expected an integer, got \"x1\"");
    assertUsageError(
        solve("--delta=0", "f.json"),
        "coflow solve: --delta: expected a number of seconds > 0, got \"0\"");
    assertUsageError(solve("f.json", "--delta"), "coflow solve: option --delta needs a value");
  }

  @Test
  void rejectsAMissingOrSecondFile() {
    assertUsageError(
        solve(),
        "coflow solve: missing instance FILE (use - for standard input;"
            + " coflow help solve lists the options)");
    assertUsageError(
        solve("a.json", "b.json"),
        "coflow solve: unexpected argument \"b.json\" (coflow help solve lists the options)");
  }

  @Test
  void rejectsAnUnknownCommand() {
    Ran r = run(new String[] {"frobnicate"}, new String[0], InputStream.nullInputStream());
    assertUsageError(
        r,
        "coflow: unknown command \"frobnicate\" (commands: help, solve, compare, simulate, bench"
            + " decision, coordinator, bench coordinator, bench scale, terasort, bench terasort-yarn,"
            + " bench faults, history,"
            + " bench fetch, testbed up, testbed check, testbed down)");
  }

  @Test
  void helpListsTheCommands() {
    Ran r = run(new String[] {"help"}, new String[0], InputStream.nullInputStream());
    assertEquals(0, r.status());
    assertTrue(r.out().contains("solve"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void solvesFig1WithFairSharing() throws Exception {
    Ran r = solve("--scheme", "fair", "--seed", "7", Examples.fig1().toString());
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    JsonNode schedule = new ObjectMapper().readTree(r.out());
    assertEquals("fair", schedule.get("scheme").textValue());
    assertTrue(schedule.get("averageCct").doubleValue() > 0, r.out());
    assertEquals(2, schedule.get("coflows").size());
    assertEquals(6, schedule.get("flows").size());
  }

  @Test
  void solvesFig1FromStdinWithTheDefaultScheme() throws Exception {
    Ran r;
    try (InputStream in = Files.newInputStream(Examples.fig1())) {
      r = solve(in, "-");
    }
    assertEquals(0, r.status(), r.err());
    JsonNode schedule = new ObjectMapper().readTree(r.out());
    assertEquals("rpc", schedule.get("scheme").textValue());
    assertEquals(3, schedule.get("coflows").get(0).get("placement").size());
    assertTrue(schedule.get("averageCct").doubleValue() > 0, r.out());
  }
}
