/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coflow simulate}: bad arguments, the JSON it promises, and the CSV. */
class SimulateCommandTest {

  @TempDir Path dir;

  private record Result(int status, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new SimulateCommand()
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static void assertUsage(Result r, String contains) {
    assertEquals(2, r.status());
    assertEquals("", r.out());
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertTrue(r.err().startsWith("coflow simulate: ") && r.err().contains(contains), r.err());
  }

  @Test
  void badArgumentsAreOneLineWithStatusTwo() {
    assertUsage(run(), "--workload: expected fb, rpc-synthetic or fabric, got nothing");
    assertUsage(run("--workload", "nope"), "got \"nope\"");
    assertUsage(run("--workload", "fb", "--schemes", "rpc,magic"), "unknown scheme \"magic\"");
    assertUsage(run("--workload", "fb", "--hosts", "-3"), "--hosts: expected positive integers");
    assertUsage(run("--workload", "fb", "--rate", "2", "--all-at-once"), "not both");
    assertUsage(
        run("--workload", "fb", "--trace", dir.resolve("none.txt").toString()),
        "--trace: cannot read");
    assertUsage(run("--workload", "fb", "--frobnicate"), "unknown option \"--frobnicate\"");
    assertUsage(
        run("--workload", "rpc-synthetic", "--hosts", "4,8", "--rate", "1,2"),
        "not for --hosts and --rate");
    assertUsage(run("--workload", "fb", "--trials", "1,2"), "--trials: expected one integer");
    assertUsage(
        run("--workload", "fb", "--resolution", "-1"), "--resolution: expected a number >= 0");
    assertUsage(run("--workload", "fb", "--delta", "soon"), "--delta: expected a number > 0");
    assertUsage(run("--workload", "fb", "--waves", "per-wave"), "--waves needs --slots");
    assertUsage(
        run("--workload", "fb", "--slots", "1", "--waves", "often"),
        "--waves: unknown wave rule \"often\" (rules: whole, last-wave, per-wave)");
    assertUsage(
        run("--workload", "fabric", "--schemes", "rpc"),
        "rpc does not choose paths, so it cannot run on a multi-path fabric");
    assertUsage(run("--workload", "fabric", "--topology", "torus"), "expected fat-tree[:K]");
    assertUsage(run("--workload", "fabric", "--topology", "fat-tree:x"), "not a whole number");
    assertUsage(run("--workload", "fabric", "--topology", "fat-tree:5"), "k must be even");
    assertUsage(run("--workload", "fabric", "--hosts", "9"), "the topology sets the hosts");
    assertUsage(run("--workload", "fb", "--topology", "vl2"), "for --workload fabric only");
    Path file = dir.resolve("a-file");
    try {
      Files.writeString(file, "x");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    assertUsage(run("--workload", "fb", "--out", file.toString()), "--out: cannot create");
  }

  @Test
  void jsonHasEveryScheme() throws Exception {
    Path out = dir.resolve("out");
    Result r =
        run(
            "--workload",
            "rpc-synthetic",
            "--hosts",
            "4",
            "--coflows",
            "6",
            "--trials",
            "2",
            "--seed",
            "5",
            "--out",
            out.toString(),
            "--json");
    assertEquals(0, r.status(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(2, root.get("trials").asInt());
    assertEquals(5, root.get("seed").asInt());
    for (String s : new String[] {"rpc", "neat", "varys", "fair"}) {
      JsonNode n = root.get("schemes").get(s);
      assertTrue(n.get("averageCct").asDouble() > 0, s);
      assertTrue(n.get("p90Cct").asDouble() > 0, s);
      assertTrue(n.get("lowerBoundRatio").asDouble() >= 1 - 1e-9, s);
      assertTrue(
          n.get("averageCct").asDouble() >= root.get("averageCctBound").asDouble() * (1 - 1e-9), s);
    }
    assertTrue(root.get("averageCctBound").asDouble() > 0);
    var csv = Files.readAllLines(out.resolve("coflows.csv"));
    assertEquals("trial,scheme,coflow,arrival_s,cct_s,lower_bound_s", csv.get(0));
    assertEquals(1 + 2 * 4 * 6, csv.size()); // trials x schemes x coflows
    for (String png : new String[] {"cct-cdf.png", "ratio-vs-neat.png"}) {
      byte[] head = Arrays.copyOf(Files.readAllBytes(out.resolve(png)), 8);
      assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head, png);
    }
  }

  @Test
  void slotsLimitTheReducersOfEveryHostThatRunsThem() throws Exception {
    assertUsage(run("--workload", "fb", "--slots", "0"), "--slots: expected positive integers");
    Instance limited =
        SimulateCommand.withReducerSlots(
            new Instance(
                List.of(Host.sender("m", 10), Host.of("r", 10, 10)),
                List.of(
                    new Coflow("c", 0, List.of(Reducer.free("x")), List.of(new Flow(0, 0, 5))))),
            3);
    assertEquals(Host.UNLIMITED_SLOTS, limited.hosts().get(0).reducerSlots());
    assertFalse(limited.hosts().get(0).canHostReducers());
    assertEquals(3, limited.hosts().get(1).reducerSlots());
    Result r =
        run(
            "--workload",
            "rpc-synthetic",
            "--hosts",
            "4",
            "--coflows",
            "6",
            "--all-at-once",
            "--slots",
            "1",
            "--schemes",
            "rpc,fair",
            "--json");
    assertEquals(0, r.status(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(1, root.get("slots").asInt());
    for (String s : new String[] {"rpc", "fair"}) {
      assertTrue(
          root.get("schemes").get(s).get("averageCct").asDouble()
              >= root.get("averageCctBound").asDouble() * (1 - 1e-9),
          s);
    }
  }

  @Test
  void aListSweepsOneParameter() throws Exception {
    Path out = dir.resolve("sweep");
    Result r =
        run(
            "--workload",
            "rpc-synthetic",
            "--hosts",
            "3,5",
            "--coflows",
            "4",
            "--schemes",
            "rpc,fair",
            "--out",
            out.toString(),
            "--json");
    assertEquals(0, r.status(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals("hosts", root.get("sweep").asText());
    assertEquals(2, root.get("points").size());
    assertEquals(3, root.get("points").get(0).get("hosts").asInt());
    assertEquals(5, root.get("points").get(1).get("hosts").asInt());
    assertTrue(root.get("points").get(1).get("delta").isNull()); // no threshold by default
    var csv = Files.readAllLines(out.resolve("coflows.csv"));
    assertEquals("hosts,trial,scheme,coflow,arrival_s,cct_s,lower_bound_s", csv.get(0));
    assertEquals(1 + 2 * 2 * 4, csv.size()); // points x schemes x coflows
    assertTrue(csv.get(1).startsWith("3,0,"), csv.get(1));
    assertTrue(Files.size(out.resolve("cct-vs-hosts.png")) > 0);
  }

  @Test
  void theFabricWorkloadComparesTheRoutingSchemesAndSweepsTheWidth() throws Exception {
    Path out = dir.resolve("fabric");
    Result r =
        run(
            "--workload",
            "fabric",
            "--topology",
            "fat-tree:4",
            "--width",
            "4,12",
            "--coflows",
            "5",
            "--out",
            out.toString(),
            "--json");
    assertEquals(0, r.status(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals("width", root.get("sweep").asText());
    JsonNode wide = root.get("points").get(1);
    assertEquals(12, wide.get("width").asInt());
    assertEquals("fat-tree k=4", wide.get("topology").asText());
    assertEquals(16, wide.get("hosts").asInt());
    for (String s : new String[] {"rapier", "scheduling-only", "routing-only", "ecmp-fair"}) {
      assertTrue(wide.get("schemes").get(s).get("lowerBoundRatio").asDouble() >= 1 - 1e-9, s);
    }
    assertTrue(wide.get("schemes").get("rapier").has("fractionSlowerThan_ecmp-fair"));
    assertTrue(wide.get("schemes").get("rapier").get("p90SpeedupOver_ecmp-fair").asDouble() > 0);
    var csv = Files.readAllLines(out.resolve("coflows.csv"));
    assertEquals(1 + 2 * 4 * 5, csv.size()); // points x schemes x coflows
    assertTrue(Files.size(out.resolve("cct-vs-width.png")) > 0);
  }
}
