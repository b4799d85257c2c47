/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.core.schedule.CoflowSchedule;
import org.coflowshuffle.core.schedule.FlowSchedule;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.Segment;
import org.junit.jupiter.api.Test;

class ScheduleWriterTest {

  private static final Instance INSTANCE =
      new Instance(
          List.of(Host.sender("S1", 1e9), Host.of("M1", 100, 100), Host.of("M2", 100, 100)),
          List.of(
              new Coflow(
                  "C1",
                  0.5,
                  List.of(Reducer.free("C1.r1"), new Reducer("C1.r2", 2)),
                  List.of(new Flow(0, 0, 100), new Flow(2, 1, 50))),
              new Coflow("C2", 1.0, List.of(Reducer.free("C2.r1")), List.of(new Flow(0, 0, 10)))));

  /** Flows deliberately out of instance order: the writer must restore it. */
  private static Schedule schedule() {
    return new Schedule(
        "rpc",
        INSTANCE,
        List.of(
            new CoflowSchedule(1, 1.0, 2.0, new int[] {1}),
            new CoflowSchedule(0, 0.5, 3.0, new int[] {1, 2})),
        List.of(
            new FlowSchedule(1, 0, 1, List.of(new Segment(1.5, 2.0, 20))),
            new FlowSchedule(0, 1, 2, List.of()),
            new FlowSchedule(
                0, 0, 1, List.of(new Segment(0.5, 1.5, 50), new Segment(2.0, 3.0, 50)))));
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test
  void writesTheSpecFormat() throws Exception {
    String text = ScheduleWriter.write(schedule());
    assertTrue(text.contains("\n  \"scheme\": \"rpc\""), "pretty-printed:\n" + text);
    assertTrue(
        text.contains("\"segments\": [[0.5, 1.5, 50.0], [2.0, 3.0, 50.0]]\n"),
        "one line:\n" + text);
    assertTrue(text.contains("\"segments\": []\n"), "local flow:\n" + text);
    JsonNode root = new ObjectMapper().readTree(text);

    assertEquals(List.of("scheme", "averageCct", "coflows", "flows"), fieldNames(root));
    assertEquals("rpc", root.get("scheme").textValue());
    assertEquals(1.75, root.get("averageCct").doubleValue());

    JsonNode c1 = root.get("coflows").get(0);
    assertEquals(List.of("id", "arrival", "finish", "cct", "placement"), fieldNames(c1));
    assertEquals("C1", c1.get("id").textValue());
    assertEquals(0.5, c1.get("arrival").doubleValue());
    assertEquals(3.0, c1.get("finish").doubleValue());
    assertEquals(2.5, c1.get("cct").doubleValue());
    assertEquals(List.of("C1.r1", "C1.r2"), fieldNames(c1.get("placement")));
    assertEquals("M1", c1.get("placement").get("C1.r1").textValue());
    assertEquals("M2", c1.get("placement").get("C1.r2").textValue());
    JsonNode c2 = root.get("coflows").get(1);
    assertEquals("C2", c2.get("id").textValue());
    assertEquals(1.0, c2.get("cct").doubleValue());
    assertEquals(2, root.get("coflows").size());

    JsonNode flows = root.get("flows");
    assertEquals(3, flows.size());
    JsonNode f0 = flows.get(0);
    assertEquals(List.of("coflow", "src", "reducer", "dst", "bytes", "segments"), fieldNames(f0));
    assertEquals("C1", f0.get("coflow").textValue());
    assertEquals("S1", f0.get("src").textValue());
    assertEquals("C1.r1", f0.get("reducer").textValue());
    assertEquals("M1", f0.get("dst").textValue());
    assertEquals(100.0, f0.get("bytes").doubleValue());
    assertEquals(
        new ObjectMapper().readTree("[[0.5, 1.5, 50.0], [2.0, 3.0, 50.0]]"), f0.get("segments"));

    JsonNode local = flows.get(1);
    assertEquals("C1.r2", local.get("reducer").textValue());
    assertEquals("M2", local.get("src").textValue());
    assertEquals("M2", local.get("dst").textValue());
    assertTrue(local.get("segments").isArray());
    assertEquals(0, local.get("segments").size());

    JsonNode f2 = flows.get(2);
    assertEquals("C2", f2.get("coflow").textValue());
    assertEquals("C2.r1", f2.get("reducer").textValue());
    assertEquals(new ObjectMapper().readTree("[[1.5, 2.0, 20.0]]"), f2.get("segments"));
  }

  @Test
  void refusesAScheduleThatLacksAFlow() {
    Schedule s = schedule();
    Schedule missing = new Schedule(s.scheme(), INSTANCE, s.coflows(), s.flows().subList(0, 2));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ScheduleWriter.write(missing));
    assertEquals("schedule lacks flow 0 of coflow C1", e.getMessage());
  }
}
