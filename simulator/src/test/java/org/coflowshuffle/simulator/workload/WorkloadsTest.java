/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Fabric;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.trace.TraceCoflow;
import org.junit.jupiter.api.Test;

/** The workloads keep the trace's bytes and the paper's method. */
class WorkloadsTest {

  @Test
  void fbReplayKeepsEveryFlowAndByte() throws Exception {
    Instance fb = FbReplay.instance(CoflowTrace.facebook(), 1.25e8, Integer.MAX_VALUE);
    assertEquals(150, fb.hosts().size());
    assertEquals(526, fb.coflows().size());
    long flows = 0;
    double bytes = 0;
    for (Coflow c : fb.coflows()) {
      flows += c.flows().size();
      bytes += c.totalBytes();
    }
    assertEquals(706_397, flows);
    assertEquals(35_533_534 * TraceCoflow.MB, bytes, 1e-9 * bytes);
    assertEquals(10.833, fb.coflows().get(1).arrival(), 1e-12);
    assertTrue(
        fb.hosts().stream().allMatch(h -> h.inBytesPerSec() == 1.25e8 && h.canHostReducers()));
  }

  @Test
  void rpcSyntheticListedReducerByReducerHasTheSameFlows() throws Exception {
    RpcSynthetic synthetic = new RpcSynthetic(CoflowTrace.facebook());
    int n = 6;
    Instance bySender = synthetic.instance(n, 4, 20, 0, 7, false);
    Instance byReducer = synthetic.instance(n, 4, 20, 0, 7, true);
    assertEquals(bySender.hosts(), byReducer.hosts());
    for (int c = 0; c < bySender.coflows().size(); c++) {
      Coflow a = bySender.coflows().get(c);
      Coflow b = byReducer.coflows().get(c);
      assertEquals(a.arrival(), b.arrival());
      for (int k = 0; k < n * n; k++) {
        Flow f = a.flows().get(k); // sender f.src() to reducer f.reducer(), k = src * n + reducer
        Flow g = b.flows().get(f.reducer() * n + f.src());
        assertEquals(f, g, "coflow " + c + ", flow " + k);
        assertEquals(k / n, f.src());
      }
    }
  }

  @Test
  void rpcSyntheticFollowsSectionVIB() throws Exception {
    RpcSynthetic synthetic = new RpcSynthetic(CoflowTrace.facebook());
    // The paper counts 96 jobs over 20 Gbit; with MB = 2^20 bytes the trace has 97 (96 with 10^6).
    assertEquals(97, synthetic.jobs());
    int n = 8;
    Instance inst = synthetic.instance(n, 5, 20, 0, 42);
    assertEquals(2 * n, inst.hosts().size());
    Set<Double> nics = Set.of(0.1, 0.2, 0.5, 1.0, 10.0, 40.0);
    for (int j = 0; j < 2 * n; j++) {
      Host h = inst.hosts().get(j);
      assertTrue(nics.contains(h.inBytesPerSec() / 1.25e8), h.toString());
      assertEquals(j >= n, h.canHostReducers());
    }
    double previous = 0;
    for (Coflow c : inst.coflows()) {
      assertEquals(n, c.reducers().size());
      assertEquals(n * n, c.flows().size());
      assertTrue(c.totalBytes() > RpcSynthetic.MIN_BYTES);
      assertTrue(c.arrival() >= previous);
      previous = c.arrival();
      for (Flow f : c.flows()) {
        assertTrue(f.src() < n, "flows come from mapper hosts");
      }
    }
    Instance together = synthetic.instance(n, 5, 0, 40 * 1.25e8, 42);
    assertTrue(together.coflows().stream().allMatch(c -> c.arrival() == 0));
    assertTrue(together.hosts().subList(0, n).stream().allMatch(h -> h.outBytesPerSec() == 5e9));
  }

  @Test
  void fabricCoflowsHaveTheirWidthBetweenDistinctHostsWithPinnedReducers() {
    Fabric fatTree = FabricWorkload.topology("fat-tree:4", 1.25e8, 0);
    assertEquals(16, fatTree.hosts());
    Instance inst = FabricWorkload.instance(fatTree, 1.25e8, 6, 10, 5, 3);
    assertEquals(fatTree, inst.fabric());
    assertEquals(16, inst.hosts().size());
    double previous = 0;
    for (Coflow c : inst.coflows()) {
      assertEquals(10, c.flows().size());
      assertTrue(c.arrival() > previous);
      previous = c.arrival();
      for (Flow f : c.flows()) {
        int dst = c.reducers().get(f.reducer()).pinnedHost();
        assertTrue(dst >= 0 && dst != f.src(), c.id());
        assertTrue(f.bytes() >= 1 << 20 && f.bytes() <= 20 << 20, c.id());
      }
    }
    Fabric vl2 = FabricWorkload.topology("vl2", 1.25e8, 0);
    assertEquals(8 * 8 / 4 * 20, vl2.hosts());
    assertEquals(320, FabricWorkload.topology("vl2:8:8", 1.25e8, 0).hosts());
    assertEquals(16 * 10, FabricWorkload.topology("vl2:8:8:10", 1.25e8, 0).hosts());
    assertEquals(1.25e9, vl2.innerCapacities()[0]); // switch links ten times the port
    assertEquals(2.5e8, FabricWorkload.topology("vl2", 1.25e8, 2.5e8).innerCapacities()[0]);
    assertEquals(1.25e8, fatTree.innerCapacities()[0]);
    assertTrue(
        FabricWorkload.instance(fatTree, 1, 3, 2, 0, 1).coflows().stream()
            .allMatch(c -> c.arrival() == 0));
  }
}
