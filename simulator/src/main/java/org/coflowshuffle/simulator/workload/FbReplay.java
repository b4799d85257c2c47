/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.workload;

import java.util.ArrayList;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.simulator.trace.CoflowTrace;
import org.coflowshuffle.simulator.trace.TraceCoflow;

/**
 * The {@code fb} workload: a Coflow-Benchmark trace replayed as it is. Each port (rack) is a host
 * that sends and may run reducers, all with the same port bandwidth; a reducer's megabytes are
 * split evenly over its coflow's mappers (the convention of CoflowSim, Varys and Aalo); arrival
 * times are exact. Where reducers run is left to each scheme: the trace's reducer racks are where
 * Hadoop put them, which is what RPC is allowed to change.
 */
public final class FbReplay {

  private FbReplay() {}

  /**
   * @param portBytesPerSec bandwidth of every port, each direction
   * @param limit how many coflows to take from the start of the trace (all if larger)
   */
  public static Instance instance(CoflowTrace trace, double portBytesPerSec, int limit) {
    List<Host> hosts = new ArrayList<>(trace.ports());
    for (int p = 0; p < trace.ports(); p++) {
      hosts.add(Host.of("port" + p, portBytesPerSec, portBytesPerSec));
    }
    List<Coflow> coflows = new ArrayList<>();
    for (TraceCoflow t : trace.coflows().subList(0, Math.min(limit, trace.coflows().size()))) {
      List<Reducer> reducers = new ArrayList<>();
      List<Flow> flows = new ArrayList<>();
      int mappers = t.mapperPorts().size();
      for (int r = 0; r < t.reducerPorts().size(); r++) {
        reducers.add(Reducer.free("C" + t.id() + ".r" + r));
        double bytes = t.reducerMegabytes().get(r) * TraceCoflow.MB / mappers;
        for (int mapperPort : t.mapperPorts()) {
          flows.add(new Flow(mapperPort, r, bytes));
        }
      }
      coflows.add(new Coflow("C" + t.id(), t.arrivalMillis() / 1000.0, reducers, flows));
    }
    return new Instance(hosts, coflows);
  }
}
