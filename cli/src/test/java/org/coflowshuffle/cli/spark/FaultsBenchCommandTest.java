/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.cli.Ran;
import org.coflowshuffle.cli.testbed.HostLink;
import org.junit.jupiter.api.Test;

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
    outcomes.put("executor-killed", new FaultsBenchCommand.Outcome(true, 60.74, 3, ""));
    outcomes.put("coordinator-stalled", new FaultsBenchCommand.Outcome(false, 900, -1, "hung"));
    assertEquals(
        "{\"scenarios\":{\"executor-killed\":{\"valid\":true,\"seconds\":60.7,"
            + "\"recomputedMapTasks\":3},\"coordinator-stalled\":{\"valid\":false,"
            + "\"seconds\":900.0,\"recomputedMapTasks\":-1}}}",
        FaultsBenchCommand.json(outcomes));
  }

  @Test
  void anUnknownScenarioIsAUsageErrorNamingTheKnownOnes() {
    Ran r = Ran.of(new FaultsBenchCommand()::run, "--scenario", "meteor");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("sender-blackholed") && r.err().contains("meteor"), r.err());
  }
}
