/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;

/**
 * Reads the instance JSON of {@code docs/coflow-instance.md} into an {@link Instance}, with host
 * and reducer ids turned into indices.
 *
 * <p>Everything the core would otherwise have to distrust is checked here, so that a scheme never
 * sees an instance it cannot finish: references resolve, numbers are finite and non-negative, ids
 * are unique, and every reducer has a host on which it can receive all its bytes. The first problem
 * found is reported as an {@link InstanceFormatException} whose one-line message names the JSON
 * path and the value. Fields the format does not know are ignored.
 *
 * <p>This class is long because it is the format's only validator; it keeps one small method per
 * rule, in three passes: structure and types, cross references, feasibility.
 */
public final class InstanceReader {

  /** NaN and Infinity are parsed so that they get a precise message instead of a syntax error. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final int MAX_VALUE_CHARS = 60;

  /** A reducer as read, before the instance is assembled. */
  private record RawReducer(String id, int pinned, int coflow, String path) {}

  /** A flow as read; {@code reducer} is resolved in the second pass. */
  private record RawFlow(int src, String reducerId, double bytes, String path) {}

  private record RawCoflow(
      String id, double arrival, List<RawReducer> reducers, List<RawFlow> flows, String path) {}

  private final List<Host> hosts = new ArrayList<>();
  private final Map<String, Integer> hostIndex = new HashMap<>();
  private final List<RawCoflow> coflows = new ArrayList<>();
  private final Map<String, RawReducer> reducersById = new HashMap<>();

  private InstanceReader() {}

  /** Reads an instance file. I/O problems surface as {@link IOException}, content ones not. */
  public static Instance read(Path file) throws IOException, InstanceFormatException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    }
  }

  /** Reads an instance from a stream, which is not closed. */
  public static Instance read(InputStream in) throws IOException, InstanceFormatException {
    JsonNode root;
    try {
      root = MAPPER.readTree(in);
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (CharConversionException e) {
      throw new InstanceFormatException(null, "malformed JSON: " + oneLine(e.getMessage()));
    }
    return fromTree(root);
  }

  /** Parses an instance from JSON text. */
  public static Instance parse(String json) throws InstanceFormatException {
    try {
      return fromTree(MAPPER.readTree(json));
    } catch (JsonProcessingException e) {
      throw malformed(e);
    }
  }

  /** Converts an already parsed JSON tree. */
  public static Instance fromTree(JsonNode root) throws InstanceFormatException {
    if (root == null || root.isMissingNode()) {
      throw new InstanceFormatException(null, "malformed JSON: the input is empty");
    }
    if (!root.isObject()) {
      throw new InstanceFormatException("instance", "expected an object, got " + describe(root));
    }
    InstanceReader r = new InstanceReader();
    r.readHosts(array(root, "", "hosts"));
    r.readCoflows(array(root, "", "coflows"));
    List<List<Flow>> flows = r.resolveFlows();
    r.checkTotalSlots();
    r.checkSendersCanSend(flows);
    r.checkReducersHaveHost(flows);
    return r.assemble(flows);
  }

  // ---- pass 1: structure, types and ranges ----

  private void readHosts(JsonNode array) throws InstanceFormatException {
    for (int i = 0; i < array.size(); i++) {
      String p = "hosts[" + i + "]";
      JsonNode h = object(array.get(i), p);
      String id = id(h, p);
      Integer first = hostIndex.putIfAbsent(id, i);
      if (first != null) {
        throw new InstanceFormatException(
            p + ".id", "duplicate host id " + q(id) + " (first at hosts[" + first + "])");
      }
      double in = nonNegative(h, p, "inBytesPerSec");
      double out = nonNegative(h, p, "outBytesPerSec");
      int slots = slots(h, p);
      boolean canHost = bool(h, p, "canHostReducers", true);
      hosts.add(new Host(id, in, out, slots, canHost));
    }
  }

  private void readCoflows(JsonNode array) throws InstanceFormatException {
    Map<String, Integer> coflowIndex = new HashMap<>();
    for (int c = 0; c < array.size(); c++) {
      String p = "coflows[" + c + "]";
      JsonNode node = object(array.get(c), p);
      String id = id(node, p);
      Integer first = coflowIndex.putIfAbsent(id, c);
      if (first != null) {
        throw new InstanceFormatException(
            p + ".id", "duplicate coflow id " + q(id) + " (first at coflows[" + first + "])");
      }
      double arrival = nonNegative(node, p, "arrival");
      List<RawReducer> reducers = new ArrayList<>();
      JsonNode rs = array(node, p, "reducers");
      for (int j = 0; j < rs.size(); j++) {
        reducers.add(readReducer(rs.get(j), p + ".reducers[" + j + "]", c));
      }
      List<RawFlow> flows = new ArrayList<>();
      JsonNode fs = array(node, p, "flows");
      for (int k = 0; k < fs.size(); k++) {
        flows.add(readFlow(fs.get(k), p + ".flows[" + k + "]"));
      }
      coflows.add(new RawCoflow(id, arrival, reducers, flows, p));
    }
  }

  private RawReducer readReducer(JsonNode element, String p, int coflow)
      throws InstanceFormatException {
    JsonNode node = object(element, p);
    String id = id(node, p);
    RawReducer first = reducersById.get(id);
    if (first != null) {
      throw new InstanceFormatException(
          p + ".id", "duplicate reducer id " + q(id) + " (first at " + first.path() + ")");
    }
    int pinned = Reducer.NOT_PINNED;
    JsonNode pin = node.get("pinnedHost");
    if (pin != null && !pin.isNull()) {
      String path = p + ".pinnedHost";
      if (!pin.isTextual()) {
        throw new InstanceFormatException(path, "expected a host id or null, got " + describe(pin));
      }
      pinned = host(pin.textValue(), path);
      Host h = hosts.get(pinned);
      if (!h.canHostReducers()) {
        throw new InstanceFormatException(
            path, "host " + q(h.id()) + " cannot host reducers (canHostReducers is false)");
      }
      if (h.reducerSlots() == 0) {
        throw new InstanceFormatException(
            path, "host " + q(h.id()) + " cannot host reducers (reducerSlots is 0)");
      }
    }
    RawReducer r = new RawReducer(id, pinned, coflow, p);
    reducersById.put(id, r);
    return r;
  }

  private RawFlow readFlow(JsonNode element, String p) throws InstanceFormatException {
    JsonNode node = object(element, p);
    int src = host(string(node, p, "src"), p + ".src");
    String reducer = string(node, p, "reducer");
    double bytes = nonNegative(node, p, "bytes");
    return new RawFlow(src, reducer, bytes, p);
  }

  // ---- pass 2: cross references ----

  /** Resolves each flow's reducer id to an index within its own coflow. */
  private List<List<Flow>> resolveFlows() throws InstanceFormatException {
    List<List<Flow>> result = new ArrayList<>();
    for (int c = 0; c < coflows.size(); c++) {
      RawCoflow coflow = coflows.get(c);
      List<Flow> flows = new ArrayList<>();
      for (RawFlow f : coflow.flows()) {
        RawReducer r = reducersById.get(f.reducerId());
        String path = f.path() + ".reducer";
        if (r == null) {
          throw new InstanceFormatException(path, "unknown reducer " + q(f.reducerId()));
        }
        if (r.coflow() != c) {
          throw new InstanceFormatException(
              path,
              "reducer "
                  + q(r.id())
                  + " belongs to coflow "
                  + q(coflows.get(r.coflow()).id())
                  + ", not "
                  + q(coflow.id()));
        }
        flows.add(new Flow(f.src(), coflow.reducers().indexOf(r), f.bytes()));
      }
      result.add(flows);
    }
    return result;
  }

  // ---- pass 3: can every coflow finish at all? ----

  /** Reducers need at least one slot somewhere (paper IV-D). */
  private void checkTotalSlots() throws InstanceFormatException {
    long slots = 0;
    for (Host h : hosts) {
      if (h.canHostReducers()) {
        slots += h.reducerSlots();
      }
    }
    long reducers = reducersById.size();
    if (slots == 0 && reducers > 0) {
      throw new InstanceFormatException(
          "hosts",
          "the hosts that can host reducers have 0 reducerSlots in total, but the coflows have "
              + reducers
              + " reducers");
    }
  }

  /** A flow whose sender has no outgoing bandwidth must be local: its reducer must run there. */
  private void checkSendersCanSend(List<List<Flow>> flows) throws InstanceFormatException {
    for (int c = 0; c < coflows.size(); c++) {
      RawCoflow coflow = coflows.get(c);
      for (int k = 0; k < flows.get(c).size(); k++) {
        Flow f = flows.get(c).get(k);
        Host src = hosts.get(f.src());
        if (f.bytes() == 0 || src.outBytesPerSec() > 0) {
          continue;
        }
        RawReducer r = coflow.reducers().get(f.reducer());
        String why;
        if (r.pinned() != Reducer.NOT_PINNED) {
          why = r.pinned() == f.src() ? null : "pinned to " + q(hosts.get(r.pinned()).id());
        } else if (!src.canHostReducers()) {
          why = "canHostReducers is false there";
        } else {
          why = src.reducerSlots() == 0 ? "reducerSlots is 0 there" : null;
        }
        if (why != null) {
          throw new InstanceFormatException(
              coflow.flows().get(k).path() + ".src",
              "host "
                  + q(src.id())
                  + " has outBytesPerSec 0 and reducer "
                  + q(r.id())
                  + " cannot run there ("
                  + why
                  + "), so the flow's "
                  + num(f.bytes())
                  + " bytes can never be sent");
        }
      }
    }
  }

  /**
   * A reducer is eligible for host h when h is its pinned host, or else can host reducers and has a
   * slot; and h can receive every non-local byte: the senders have outgoing bandwidth and h has
   * incoming bandwidth unless all of the reducer's non-zero flows come from h.
   */
  private void checkReducersHaveHost(List<List<Flow>> flows) throws InstanceFormatException {
    boolean someHostReceives = false;
    for (Host h : hosts) {
      someHostReceives |= h.acceptsReducers() && h.inBytesPerSec() > 0;
    }
    for (int c = 0; c < coflows.size(); c++) {
      RawCoflow coflow = coflows.get(c);
      for (int j = 0; j < coflow.reducers().size(); j++) {
        RawReducer r = coflow.reducers().get(j);
        Set<Integer> sources = new HashSet<>();
        Set<Integer> silent = new HashSet<>();
        for (Flow f : flows.get(c)) {
          if (f.reducer() == j && f.bytes() > 0) {
            sources.add(f.src());
            if (hosts.get(f.src()).outBytesPerSec() == 0) {
              silent.add(f.src());
            }
          }
        }
        checkReducerHasHost(r, sources, silent, someHostReceives);
      }
    }
  }

  private void checkReducerHasHost(
      RawReducer r, Set<Integer> sources, Set<Integer> silent, boolean someHostReceives)
      throws InstanceFormatException {
    if (r.pinned() != Reducer.NOT_PINNED) {
      Host h = hosts.get(r.pinned());
      boolean remote = sources.stream().anyMatch(s -> s != r.pinned());
      if (remote && h.inBytesPerSec() == 0) {
        throw new InstanceFormatException(
            r.path() + ".pinnedHost",
            "host "
                + q(h.id())
                + " has inBytesPerSec 0 but reducer "
                + q(r.id())
                + " must fetch bytes from other hosts");
      }
      return;
    }
    String why = null;
    if (silent.size() > 1) {
      why =
          "its flows from " + names(silent) + " must all be local, as those have outBytesPerSec 0";
    } else if (silent.size() == 1) {
      int z = silent.iterator().next();
      if (sources.size() > 1 && hosts.get(z).inBytesPerSec() == 0) {
        why =
            "it must run on "
                + q(hosts.get(z).id())
                + " (outBytesPerSec 0), which has inBytesPerSec 0, but it also fetches from "
                + "other hosts";
      }
    } else if (!someHostReceives) {
      boolean localCandidate =
          sources.size() == 1 && hosts.get(sources.iterator().next()).acceptsReducers();
      boolean anyCandidate = hosts.stream().anyMatch(Host::acceptsReducers);
      if (!(sources.isEmpty() ? anyCandidate : localCandidate)) {
        why = "no host with canHostReducers and reducerSlots > 0 has inBytesPerSec > 0";
      }
    }
    if (why != null) {
      throw new InstanceFormatException(
          r.path(), "reducer " + q(r.id()) + " has no eligible host: " + why);
    }
  }

  private Instance assemble(List<List<Flow>> flows) throws InstanceFormatException {
    List<Coflow> result = new ArrayList<>();
    try {
      for (int c = 0; c < coflows.size(); c++) {
        RawCoflow raw = coflows.get(c);
        List<Reducer> reducers = new ArrayList<>();
        for (RawReducer r : raw.reducers()) {
          reducers.add(new Reducer(r.id(), r.pinned()));
        }
        result.add(new Coflow(raw.id(), raw.arrival(), reducers, flows.get(c)));
      }
      return new Instance(hosts, result);
    } catch (IllegalArgumentException e) {
      // Unreachable when the checks above are complete; kept so a gap still gives one line.
      throw new InstanceFormatException("instance", oneLine(e.getMessage()));
    }
  }

  // ---- typed field access; every failure names the path and the value ----

  private int host(String id, String path) throws InstanceFormatException {
    Integer index = hostIndex.get(id);
    if (index == null) {
      throw new InstanceFormatException(path, "unknown host " + q(id));
    }
    return index;
  }

  private static JsonNode field(JsonNode object, String parent, String name)
      throws InstanceFormatException {
    JsonNode value = object.get(name);
    if (value == null) {
      throw new InstanceFormatException(join(parent, name), "required field is missing");
    }
    return value;
  }

  private static JsonNode object(JsonNode node, String path) throws InstanceFormatException {
    if (!node.isObject()) {
      throw new InstanceFormatException(path, "expected an object, got " + describe(node));
    }
    return node;
  }

  private static JsonNode array(JsonNode object, String parent, String name)
      throws InstanceFormatException {
    JsonNode node = field(object, parent, name);
    if (!node.isArray()) {
      throw new InstanceFormatException(
          join(parent, name), "expected an array, got " + describe(node));
    }
    return node;
  }

  private static String string(JsonNode object, String parent, String name)
      throws InstanceFormatException {
    JsonNode node = field(object, parent, name);
    if (!node.isTextual()) {
      throw new InstanceFormatException(
          join(parent, name), "expected a string, got " + describe(node));
    }
    return node.textValue();
  }

  private static String id(JsonNode object, String parent) throws InstanceFormatException {
    String id = string(object, parent, "id");
    if (id.isEmpty()) {
      throw new InstanceFormatException(
          join(parent, "id"), "expected a non-empty string, got \"\"");
    }
    return id;
  }

  private static double nonNegative(JsonNode object, String parent, String name)
      throws InstanceFormatException {
    JsonNode node = field(object, parent, name);
    String path = join(parent, name);
    if (!node.isNumber()) {
      throw new InstanceFormatException(path, "expected a number, got " + describe(node));
    }
    double value = node.asDouble();
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new InstanceFormatException(
          path, "must be a finite number >= 0, got " + describe(node));
    }
    return value;
  }

  /** Optional; absent or null means unlimited, and so does anything beyond the int range. */
  private static int slots(JsonNode object, String parent) throws InstanceFormatException {
    JsonNode node = object.get("reducerSlots");
    if (node == null || node.isNull()) {
      return Host.UNLIMITED_SLOTS;
    }
    String path = join(parent, "reducerSlots");
    if (!node.isNumber() || !node.canConvertToExactIntegral()) {
      throw new InstanceFormatException(path, "expected an integer, got " + describe(node));
    }
    if (node.asDouble() < 0) {
      throw new InstanceFormatException(path, "must be >= 0, got " + describe(node));
    }
    return node.asDouble() >= Host.UNLIMITED_SLOTS ? Host.UNLIMITED_SLOTS : node.asInt();
  }

  private static boolean bool(JsonNode object, String parent, String name, boolean fallback)
      throws InstanceFormatException {
    JsonNode node = object.get(name);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw new InstanceFormatException(
          join(parent, name), "expected true or false, got " + describe(node));
    }
    return node.booleanValue();
  }

  // ---- message helpers ----

  private static InstanceFormatException malformed(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where =
        at == null || at.getLineNr() < 0
            ? ""
            : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    String what = e.getOriginalMessage();
    // Jackson appends the location of an open bracket in its own form; ours is above.
    int marker = what.indexOf(" (start marker at ");
    if (marker >= 0) {
      what = what.substring(0, marker);
    }
    if (what.startsWith("Trailing token")) {
      what = "unexpected content after the end of the instance object";
    }
    return new InstanceFormatException(null, "malformed JSON" + where + ": " + oneLine(what));
  }

  private static String describe(JsonNode node) {
    if (node.isNull()) {
      return "null";
    }
    if (node.isTextual()) {
      return "string " + q(node.textValue());
    }
    if (node.isArray()) {
      return "an array";
    }
    if (node.isObject()) {
      return "an object";
    }
    if (node.isNumber() && !Double.isFinite(node.asDouble())) {
      return Double.toString(node.asDouble()); // Jackson would quote NaN and Infinity
    }
    return node.toString();
  }

  /** A JSON-quoted, escaped and shortened string, so a message stays on one line. */
  private static String q(String s) {
    String quoted = TextNode.valueOf(s).toString();
    return quoted.length() <= MAX_VALUE_CHARS
        ? quoted
        : quoted.substring(0, MAX_VALUE_CHARS - 4) + "...\"";
  }

  private String names(Set<Integer> hostIndices) {
    List<String> names = new ArrayList<>();
    hostIndices.stream().sorted().forEach(h -> names.add(q(hosts.get(h).id())));
    return String.join(", ", names);
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  private static String join(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
