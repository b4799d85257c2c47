/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.schedule.CoflowSchedule;
import org.coflowshuffle.core.schedule.FlowSchedule;
import org.coflowshuffle.core.schedule.Schedule;
import org.coflowshuffle.core.schedule.Segment;

/**
 * Writes a {@link Schedule} as the schedule JSON of {@code docs/coflow-instance.md}: ids instead of
 * indices, coflows and flows in instance order, pretty-printed.
 *
 * <p>A schedule that lacks a coflow or a flow of its instance is a bug of the scheme that made it,
 * so it is refused with an {@link IllegalArgumentException} rather than written incompletely.
 */
public final class ScheduleWriter {

  private static final ObjectWriter WRITER =
      JsonMapper.builder().build().writer(new SchedulePrinter());

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ScheduleWriter() {}

  /**
   * One object field or array entry per line, {@code "key": value}, except that the arrays inside a
   * flow (its segments and each segment) stay on one line, as in the spec's example.
   */
  private static final class SchedulePrinter extends DefaultPrettyPrinter {

    private static final long serialVersionUID = 1L;

    /** Root object 1, "flows" 2, a flow 3, its "segments" 4. */
    private static final int INLINE_DEPTH = 4;

    SchedulePrinter() {
      super(
          Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER));
      indentArraysWith(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE);
    }

    private SchedulePrinter(SchedulePrinter base) {
      super(base);
    }

    @Override
    public DefaultPrettyPrinter createInstance() {
      return new SchedulePrinter(this);
    }

    private static boolean inline(JsonGenerator g) {
      return g.getOutputContext().getNestingDepth() >= INLINE_DEPTH;
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
      if (inline(g)) {
        g.writeRaw('[');
      } else {
        super.writeStartArray(g);
      }
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) throws IOException {
      if (!inline(g)) {
        super.beforeArrayValues(g);
      }
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
      if (inline(g)) {
        g.writeRaw(", ");
      } else {
        super.writeArrayValueSeparator(g);
      }
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
      if (inline(g)) {
        g.writeRaw(']');
      } else {
        super.writeEndArray(g, values);
      }
    }
  }

  /** The schedule as pretty-printed JSON text, without a trailing newline. */
  public static String write(Schedule schedule) {
    try {
      return WRITER.writeValueAsString(toJson(schedule));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The schedule as a JSON tree, in the field order of the spec. */
  public static ObjectNode toJson(Schedule schedule) {
    Instance instance = schedule.instance();
    CoflowSchedule[] coflows = byCoflow(schedule);
    FlowSchedule[][] flows = byFlow(schedule);

    ObjectNode root = NODES.objectNode();
    root.put("scheme", schedule.scheme());
    root.put("averageCct", schedule.averageCct());
    ArrayNode coflowArray = root.putArray("coflows");
    for (int c = 0; c < coflows.length; c++) {
      coflowArray.add(coflow(instance, instance.coflows().get(c), coflows[c]));
    }
    ArrayNode flowArray = root.putArray("flows");
    for (int c = 0; c < coflows.length; c++) {
      Coflow coflow = instance.coflows().get(c);
      for (int k = 0; k < coflow.flows().size(); k++) {
        flowArray.add(flow(instance, coflow, coflow.flows().get(k), flows[c][k]));
      }
    }
    return root;
  }

  private static ObjectNode coflow(Instance instance, Coflow coflow, CoflowSchedule s) {
    ObjectNode node = NODES.objectNode();
    node.put("id", coflow.id());
    node.put("arrival", s.arrival());
    node.put("finish", s.finish());
    node.put("cct", s.cct());
    ObjectNode placement = node.putObject("placement");
    for (int j = 0; j < coflow.reducers().size(); j++) {
      placement.put(coflow.reducers().get(j).id(), hostId(instance, s.hostOf()[j]));
    }
    return node;
  }

  private static ObjectNode flow(Instance instance, Coflow coflow, Flow flow, FlowSchedule s) {
    ObjectNode node = NODES.objectNode();
    node.put("coflow", coflow.id());
    node.put("src", instance.hosts().get(flow.src()).id());
    node.put("reducer", coflow.reducers().get(flow.reducer()).id());
    node.put("dst", hostId(instance, s.dst()));
    node.put("bytes", flow.bytes());
    ArrayNode segments = node.putArray("segments");
    for (Segment g : s.segments()) {
      segments.addArray().add(g.start()).add(g.end()).add(g.rate());
    }
    return node;
  }

  private static CoflowSchedule[] byCoflow(Schedule schedule) {
    List<Coflow> coflows = schedule.instance().coflows();
    CoflowSchedule[] result = new CoflowSchedule[coflows.size()];
    for (CoflowSchedule c : schedule.coflows()) {
      if (c.coflow() < 0 || c.coflow() >= result.length || result[c.coflow()] != null) {
        throw new IllegalArgumentException(
            "schedule lists coflow index " + c.coflow() + " twice or out of range");
      }
      if (c.hostOf().length != coflows.get(c.coflow()).reducers().size()) {
        throw new IllegalArgumentException(
            "schedule places "
                + c.hostOf().length
                + " reducers of coflow "
                + coflows.get(c.coflow()).id()
                + ", which has "
                + coflows.get(c.coflow()).reducers().size());
      }
      result[c.coflow()] = c;
    }
    for (int c = 0; c < result.length; c++) {
      if (result[c] == null) {
        throw new IllegalArgumentException("schedule lacks coflow " + coflows.get(c).id());
      }
    }
    return result;
  }

  private static FlowSchedule[][] byFlow(Schedule schedule) {
    List<Coflow> coflows = schedule.instance().coflows();
    FlowSchedule[][] result = new FlowSchedule[coflows.size()][];
    for (int c = 0; c < result.length; c++) {
      result[c] = new FlowSchedule[coflows.get(c).flows().size()];
    }
    for (FlowSchedule f : schedule.flows()) {
      if (f.coflow() < 0
          || f.coflow() >= result.length
          || f.flow() < 0
          || f.flow() >= result[f.coflow()].length
          || result[f.coflow()][f.flow()] != null) {
        throw new IllegalArgumentException(
            "schedule lists flow "
                + f.flow()
                + " of coflow index "
                + f.coflow()
                + " twice or out of range");
      }
      result[f.coflow()][f.flow()] = f;
    }
    for (int c = 0; c < result.length; c++) {
      for (int k = 0; k < result[c].length; k++) {
        if (result[c][k] == null) {
          throw new IllegalArgumentException(
              "schedule lacks flow " + k + " of coflow " + coflows.get(c).id());
        }
      }
    }
    return result;
  }

  private static String hostId(Instance instance, int host) {
    if (host < 0 || host >= instance.hosts().size()) {
      throw new IllegalArgumentException("schedule names host index " + host);
    }
    return instance.hosts().get(host).id();
  }
}
