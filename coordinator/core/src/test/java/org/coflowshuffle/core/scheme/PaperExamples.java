/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.core.scheme;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.FeasibilityChecker;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;

/** Builds the small instances of the papers' worked examples and runs schemes on them. */
final class PaperExamples {

  private PaperExamples() {}

  /**
   * A coflow whose reducers are pinned: {@code flows} rows are {sender host, reducer host, bytes};
   * each distinct reducer host is one reducer.
   */
  static Coflow pinned(String id, double arrival, double[][] flows) {
    List<Reducer> reducers = new ArrayList<>();
    List<Integer> hosts = new ArrayList<>();
    List<Flow> list = new ArrayList<>();
    for (double[] f : flows) {
      int host = (int) f[1];
      if (!hosts.contains(host)) {
        hosts.add(host);
        reducers.add(new Reducer(id + ".r" + host, host));
      }
      list.add(new Flow((int) f[0], hosts.indexOf(host), f[2]));
    }
    return new Coflow(id, arrival, reducers, list);
  }

  /** Runs {@code scheme}, checks the schedule is feasible and prints each coflow's CCT. */
  static Schedule run(String figure, String scheme, Instance instance) {
    Schedule s = ScheduleRunner.run(instance, Schemes.create(scheme, SchemeOptions.defaults()));
    FeasibilityChecker.check(instance, s);
    StringBuilder line = new StringBuilder(String.format("%s %-7s", figure, scheme));
    for (int c = 0; c < s.coflows().size(); c++) {
      line.append(
          String.format(" %s %.4f s", instance.coflows().get(c).id(), s.coflows().get(c).cct()));
    }
    System.out.println(line);
    return s;
  }
}
