/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed for real: namespaces, veth pairs, a bridge and token buckets (needs root, as CI has).
 * Its own prefix and subnet, so it never touches a testbed someone has up.
 */
class TestbedIT {

  private final Testbed testbed = new Testbed("cfit", "10.78.0");

  @AfterEach
  void cleanUp() throws Exception {
    testbed.down();
  }

  @Test
  void hostsAreShapedReachableAndRemovedWithoutTrace() throws Exception {
    testbed.down(); // whatever an earlier crash left
    List<HostLink> hosts = testbed.hosts(TestbedProfile.rates("custom:100,40,100", 3, 100));
    testbed.up(hosts);
    assertEquals(
        List.of("cfit-h1", "cfit-h2", "cfit-h3"), testbed.namespaces().stream().sorted().toList());
    assertTrue(testbed.qdisc("cfit-h2", "eth0").contains("rate 40Mbit"), "out of h2 is shaped");
    assertTrue(testbed.qdisc(null, "cfit-v2").contains("rate 40Mbit"), "into h2 is shaped");
    assertTrue(
        Files.readString(Path.of("/etc/netns/cfit-h1/hosts")).contains("10.78.0.12 cfit-h2"),
        "host names resolve inside the namespaces");
    assertTrue(
        Files.readString(Path.of("/etc/hosts")).contains("10.78.0.12 cfit-h2 # cfit testbed"),
        "and on the machine");
    double toH2 = testbed.probe(hosts.get(0), hosts.get(1), 1.5) * 8 / 1e6;
    assertTrue(toH2 > 0 && toH2 < 40 * 1.1, "h1 → h2 is held to h2's 40 Mbit/s: " + toH2);
    assertThrows(IllegalStateException.class, () -> testbed.up(hosts), "up twice is refused");
    testbed.down();
    assertTrue(testbed.namespaces().isEmpty());
    assertFalse(testbed.isUp());
    assertFalse(Files.exists(Path.of("/etc/netns/cfit-h1")));
    assertFalse(Files.readString(Path.of("/etc/hosts")).contains("cfit"), "names removed");
  }

  @Test
  void aTestbedAKilledRunLeftUpIsReplacedAndOneInUseIsNot(@TempDir Path dir) throws Exception {
    testbed.down();
    Path state = dir.resolve("testbed.json");
    Path owner = dir.resolve("testbed.owner");
    List<HostLink> two = testbed.hosts(TestbedProfile.rates("homogeneous", 2, 100));
    List<HostLink> three = testbed.hosts(TestbedProfile.rates("homogeneous", 3, 50));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
    TestbedCommands.session(testbed, state, owner, two, err);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Files.writeString(owner, Long.toString(gone.pid())); // as if its run had been killed

    try (TestbedCommands.Session next =
        TestbedCommands.session(testbed, state, owner, three, err)) {
      assertEquals(3, testbed.namespaces().size(), "the stale testbed was replaced");
      assertEquals(three, next.hosts());
      assertEquals(
          "coflow: taking down the testbed that run " + gone.pid() + " left up: it no longer runs",
          log.toString(StandardCharsets.UTF_8).strip());
      assertThrows(
          IllegalStateException.class,
          () -> TestbedCommands.session(testbed, state, owner, two, err),
          "a testbed whose run still runs is not taken from it");
      assertEquals(three, TestbedCommands.session(testbed, state, owner, three, err).hosts());
    }
    assertFalse(testbed.isUp(), "the run that made it takes it down");
    assertFalse(Files.exists(owner));
  }

  @Test
  void profilesAreCheckedBeforeAnythingIsMade() {
    assertThrows(IllegalArgumentException.class, () -> TestbedProfile.rates("rpc-fig4", 5, 200));
    assertThrows(IllegalArgumentException.class, () -> TestbedProfile.rates("custom:1,x", 2, 200));
    assertThrows(IllegalArgumentException.class, () -> TestbedProfile.rates("fast", 2, 200));
    int[] fig4 = TestbedProfile.rates("rpc-fig4", 6, 200);
    assertEquals(
        List.of(200, 200, 200, 200, 100, 100), java.util.Arrays.stream(fig4).boxed().toList());
  }
}
