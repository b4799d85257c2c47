/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SchemeReportTest {

  private static Simulation.Outcome outcome(double... cct) {
    return new Simulation.Outcome("s", cct, new double[0], 0);
  }

  @Test
  void speedupsAreReferenceOverOwnPerCoflowNotARatioOfPercentiles() {
    SchemeReport r = new SchemeReport("s");
    double[] reference = {2, 4, 1, 0, 10};
    r.add(outcome(1, 1, 2, 3, 10), new double[5], 0, reference);
    // coflow 3 has no reference CCT and is left out: speedups 2, 4, 0.5, 1
    Summary s = r.speedupOverReference();
    assertEquals(4, s.count());
    assertEquals(1, s.p50(), 1e-12); // sorted 0.5, 1, 2, 4: nearest rank 2 of 4
    assertEquals(4, s.p90(), 1e-12);
    // the p90 of each side's CCTs would give 10 / 10 = 1, however the coflows fared one by one
    assertEquals(1, r.cct().p90() / Summary.of(reference).p90(), 1e-12);
    assertEquals(1.0 / 5, r.fractionSlowerThanReference(), 1e-12); // coflow 2 alone
  }

  @Test
  void withoutAReferenceThereAreNoSpeedups() {
    SchemeReport r = new SchemeReport("s");
    r.add(outcome(1, 2), new double[2], 0, null);
    assertEquals(0, r.speedupOverReference().count());
  }
}
