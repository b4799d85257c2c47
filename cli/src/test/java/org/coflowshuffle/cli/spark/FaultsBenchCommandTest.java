/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.Ran;
import org.coflowshuffle.cli.testbed.HostLink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultsBenchCommandTest {

  private static final List<HostLink> HOSTS =
      List.of(
          new HostLink("h1", "coflow-h1", "10.77.0.11", 10, 10),
          new HostLink("h2", "coflow-h2", "10.77.0.12", 10, 10),
          new HostLink("h3", "coflow-h3", "10.77.0.13", 10, 10));

  @Test
  void theVictimIsTheLastHostWithoutTheApplicationMaster() {
    assertEquals("h3", FaultsBenchCommand.victim(HOSTS, "h1").name());
    assertEquals("h2", FaultsBenchCommand.victim(HOSTS, "h3").name());
    assertEquals("h3", FaultsBenchCommand.victim(HOSTS, null).name());
  }

  @Test
  void theLastLineNamesEveryScenarioWithItsOutcome() {
    Map<String, FaultsBenchCommand.Outcome> outcomes = new LinkedHashMap<>();
    outcomes.put("executor-killed", new FaultsBenchCommand.Outcome(true, 60.74, 3, 0, ""));
    outcomes.put("coordinator-stalled", new FaultsBenchCommand.Outcome(false, 900, -1, -1, "hung"));
    assertEquals(
        "{\"scenarios\":{\"executor-killed\":{\"valid\":true,\"seconds\":60.7,"
            + "\"recomputedMapTasks\":3,\"heldFetches\":0},\"coordinator-stalled\":{"
            + "\"valid\":false,\"seconds\":900.0,\"recomputedMapTasks\":-1,\"heldFetches\":-1}}}",
        FaultsBenchCommand.json(outcomes));
  }

  @Test
  void heldFetchesAreCountedInTheApplicationsContainerLogsOnly(@TempDir Path yarn)
      throws Exception {
    assertEquals(-1, FaultsBenchCommand.heldFetches(yarn.resolve("none"), "application_1_0002"));
    Path mine = yarn.resolve("h1/logs/application_1_0002/container_1_0002_01_000002/stderr");
    Path other = yarn.resolve("h1/logs/application_1_0001/container_1_0001_01_000002/stderr");
    Files.createDirectories(mine.getParent());
    Files.createDirectories(other.getParent());
    String held = "WARN DriverLink: coflow: shuffle 0: a fetch was held for 180.0 s; ...\n";
    Files.writeString(mine, "INFO ok\n" + held + held);
    Files.writeString(other, held);
    // the application's caches (deleted by YARN as it ends, perhaps while this reads) are not read
    Path cache =
        yarn.resolve("h2/local/usercache/root/appcache/application_1_0002/blockmgr/stderr");
    Files.createDirectories(cache.getParent());
    Files.writeString(cache, held);
    assertEquals(2, FaultsBenchCommand.heldFetches(yarn, "application_1_0002"));
    assertEquals(-1, FaultsBenchCommand.heldFetches(yarn, "application_1_0003"), "no logs");
  }

  @Test
  void anUnknownScenarioIsAUsageErrorNamingTheKnownOnes() {
    Ran r = Ran.of(new FaultsBenchCommand()::run, "--scenario", "meteor");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("sender-blackholed") && r.err().contains("meteor"), r.err());
  }
}
