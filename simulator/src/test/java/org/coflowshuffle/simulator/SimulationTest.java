/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;
import org.coflowshuffle.simulator.io.InstanceReader;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.junit.jupiter.api.Test;

/** The simulator where the answer is known by hand, and against {@code coflow solve}. */
class SimulationTest {

  private static final SchemeOptions OPTIONS = SchemeOptions.defaults();

  @Test
  void oneFlowTakesItsBytesOverTheSlowerLink() {
    Instance one =
        new Instance(
            List.of(Host.sender("S", 2e8), Host.of("R", 1e8, 1e8)),
            List.of(new Coflow("C", 0, List.of(Reducer.free("r")), List.of(new Flow(0, 0, 3e8)))));
    for (String scheme : Schemes.names()) {
      assertEquals(3.0, Simulation.run(one, scheme, OPTIONS).cct()[0], 1e-9, scheme);
    }
    assertEquals(3.0, IsolatedLowerBound.of(one.coflows().get(0), one.hosts()), 1e-12);
  }

  @Test
  void twoFlowsShareALinkFairly() {
    // Both reducers pinned on R: fair sharing gives each half of R's link until the smaller ends.
    Instance two =
        new Instance(
            List.of(Host.sender("S1", 1e9), Host.sender("S2", 1e9), Host.of("R", 1e8, 1e8)),
            List.of(
                new Coflow("A", 0, List.of(new Reducer("a", 2)), List.of(new Flow(0, 0, 1e8))),
                new Coflow("B", 0, List.of(new Reducer("b", 2)), List.of(new Flow(1, 0, 3e8)))));
    double[] fair = {
      Simulation.run(two, "fair", OPTIONS).cct()[0], Simulation.run(two, "fair", OPTIONS).cct()[1]
    };
    assertArrayEquals(new double[] {2.0, 4.0}, fair, 1e-9); // A: 1e8 at 5e7; B: 1e8 then 2e8 at 1e8
    double[] srtf = Simulation.run(two, "rpc", OPTIONS).cct();
    assertArrayEquals(new double[] {1.0, 4.0}, srtf, 1e-9); // shortest first, whole link each
  }

  @Test
  void fig1GivesWhatSolveGives() throws Exception {
    Path fig1 = null;
    for (Path d = Path.of("").toAbsolutePath(); d != null && fig1 == null; d = d.getParent()) {
      fig1 =
          Files.isRegularFile(d.resolve("examples/fig1.json"))
              ? d.resolve("examples/fig1.json")
              : null;
    }
    Instance inst = InstanceReader.read(fig1);
    for (String scheme : Schemes.names()) {
      double[] simulated = Simulation.run(inst, scheme, OPTIONS).cct();
      var solved = ScheduleRunner.run(inst, Schemes.create(scheme, OPTIONS)).coflows();
      for (int i = 0; i < simulated.length; i++) {
        assertEquals(solved.get(i).cct(), simulated[i], 1e-12, scheme);
      }
    }
    assertEquals(1.5, Simulation.run(inst, "rpc", OPTIONS).cct()[0], 1e-9);
    assertEquals(3.0, Simulation.run(inst, "rpc", OPTIONS).cct()[1], 1e-9);
  }

  @Test
  void noSchemeBeatsTheIsolatedLowerBound() throws Exception {
    Instance inst =
        new org.coflowshuffle.simulator.workload.RpcSynthetic(CoflowTrace.facebook())
            .instance(6, 8, 5, 0, 9);
    for (String scheme : Schemes.names()) {
      double[] cct = Simulation.run(inst, scheme, OPTIONS).cct();
      for (int i = 0; i < cct.length; i++) {
        double bound = IsolatedLowerBound.of(inst.coflows().get(i), inst.hosts());
        assertTrue(
            cct[i] >= bound * (1 - 1e-9), scheme + " coflow " + i + ": " + cct[i] + " < " + bound);
      }
    }
  }
}
