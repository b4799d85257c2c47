/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.policy.SchemeOptions;
import org.coflowshuffle.core.schedule.CoflowSchedule;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.ScheduleRunner;
import org.coflowshuffle.core.scheme.Schemes;

/**
 * The flow model of a terasort run's own layout: how long its shuffles would have taken if every
 * byte moved at the rates the scheme plans, on links at what they carry, with nothing else in the
 * way (no task start, no CPU, no stage end). Set against the live run, it says how much of a live
 * CCT the scheme's plan accounts for, and how much is the rest of the system.
 *
 * <p>Each reduce stage the run's jobs ran is one coflow, arriving when the stage was submitted
 * (seconds after the first one). Each reduce task is one reducer, pinned to the host it ran on,
 * reading the bytes it read. Those bytes come from the hosts that ran the stage's map tasks, in
 * proportion to the bytes those wrote (terasort's keys are uniform, so each map task's output
 * splits evenly over the reducers): reducer r reads {@code read(r) * written(h) / written} from
 * host h, nothing over the network from its own host.
 */
final class LayoutModel {

  private LayoutModel() {}

  /**
   * The model of a run: its coflows on {@code links}.
   *
   * @param result the run's result (per job, its {@code shuffles} as the terasort app writes them)
   * @param links per host name, the bytes per second its link carries in and out
   * @throws IllegalArgumentException when a task ran on a host {@code links} does not name, or no
   *     reduce stage ran
   */
  static Instance instance(JsonNode result, Map<String, double[]> links) {
    List<String> names = new ArrayList<>(links.keySet());
    List<Host> hosts = new ArrayList<>();
    for (String name : names) {
      hosts.add(Host.of(name, links.get(name)[0], links.get(name)[1]));
    }
    List<JsonNode> stages = new ArrayList<>();
    result.path("jobs").forEach(j -> j.path("shuffles").forEach(stages::add));
    if (stages.isEmpty()) {
      throw new IllegalArgumentException("the run has no reduce stage to model");
    }
    long first = stages.stream().mapToLong(s -> s.get("submittedMillis").asLong()).min().orElse(0);
    List<Coflow> coflows = new ArrayList<>();
    for (JsonNode s : stages) {
      String id = "shuffle-" + s.get("shuffle").asInt();
      Map<Integer, Long> written = new LinkedHashMap<>();
      long total = 0;
      for (Map.Entry<String, JsonNode> e : s.get("mapOutput").properties()) {
        long bytes = e.getValue().asLong();
        written.merge(index(names, e.getKey()), bytes, Long::sum);
        total += bytes;
      }
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      for (JsonNode r : s.get("reducers")) {
        int at = index(names, r.get("host").asText());
        int n = reducers.size();
        reducers.add(new Reducer(id + ".r" + r.get("partition").asInt(), at));
        double read = r.get("bytes").asDouble();
        for (var w : written.entrySet()) {
          if (total > 0 && w.getValue() > 0) {
            flows.add(new Flow(w.getKey(), n, read * w.getValue() / total));
          }
        }
      }
      double arrival = (s.get("submittedMillis").asLong() - first) / 1000.0;
      coflows.add(new Coflow(id, arrival, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }

  /**
   * The model's CCT of each reduce stage of a run under {@code scheme} (the run's own: {@code rpc},
   * {@code varys} for rates only, {@code fair}), seconds, in the order the run lists them (job by
   * job): set against each stage's live CCT, it says which coflows lose time, and whether a stage's
   * loss is paid again by the coflows served after it.
   */
  static double[] ccts(
      JsonNode result, Map<String, double[]> links, String scheme, boolean workConserving) {
    SchemeOptions options =
        new SchemeOptions(
            SchemeOptions.defaults().seed(),
            SchemeOptions.DEFAULT_STARVATION_THRESHOLD,
            workConserving);
    Schedule schedule =
        ScheduleRunner.run(instance(result, links), Schemes.create(scheme, options));
    double[] ccts = new double[schedule.coflows().size()];
    for (CoflowSchedule c : schedule.coflows()) {
      ccts[c.coflow()] = c.cct();
    }
    return ccts;
  }

  private static int index(List<String> names, String host) {
    int i = names.indexOf(host);
    if (i < 0) {
      throw new IllegalArgumentException("a task ran on " + host + ", not a host of the model");
    }
    return i;
  }
}
