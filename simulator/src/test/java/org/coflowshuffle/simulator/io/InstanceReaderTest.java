/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.coflowshuffle.core.model.Coflow;
import org.coflowshuffle.core.model.Flow;
import org.coflowshuffle.core.model.Host;
import org.coflowshuffle.core.model.Instance;
import org.coflowshuffle.core.model.Reducer;
import org.coflowshuffle.testing.Examples;
import org.junit.jupiter.api.Test;

class InstanceReaderTest {

  /** JSON with single quotes, for readable test data. */
  private static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }

  /** An instance with the given hosts and one coflow C1 with the given reducers and flows. */
  private static String instance(String hosts, String reducers, String flows) {
    return json(
        "{'hosts': ["
            + hosts
            + "], 'coflows': [{'id': 'C1', 'arrival': 0, 'reducers': ["
            + reducers
            + "], 'flows': ["
            + flows
            + "]}]}");
  }

  private static final String HOSTS =
      "{'id': 'M1', 'inBytesPerSec': 100, 'outBytesPerSec': 100},"
          + " {'id': 'S1', 'inBytesPerSec': 100, 'outBytesPerSec': 100, 'canHostReducers': false}";
  private static final String REDUCERS = "{'id': 'C1.r1'}";
  private static final String FLOWS = "{'src': 'S1', 'reducer': 'C1.r1', 'bytes': 10}";

  private static void assertRejected(String json, String message) {
    InstanceFormatException e =
        assertThrows(InstanceFormatException.class, () -> InstanceReader.parse(json));
    assertEquals(message, e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "message must be one line");
  }

  @Test
  void readsFig1() throws Exception {
    Instance instance = InstanceReader.read(Examples.fig1());
    assertEquals(6, instance.hosts().size());
    assertEquals(new Host("M1", 2.5e8, 2.5e8, Host.UNLIMITED_SLOTS, true), instance.hosts().get(0));
    assertEquals(
        new Host("M2", 1.25e8, 1.25e8, Host.UNLIMITED_SLOTS, true), instance.hosts().get(1));
    assertEquals(
        new Host("S3", 1.25e9, 1.25e9, Host.UNLIMITED_SLOTS, false), instance.hosts().get(5));
    assertEquals(2, instance.coflows().size());
    Coflow c1 = instance.coflows().get(0);
    assertEquals("C1", c1.id());
    assertEquals(0.0, c1.arrival());
    assertEquals(3, c1.reducers().size());
    assertEquals(Reducer.free("C1.r3"), c1.reducers().get(2));
    assertEquals(new Flow(3, 0, 1.25e8), c1.flows().get(0));
    assertEquals(new Flow(5, 2, 2.5e8), c1.flows().get(2));
    Coflow c2 = instance.coflows().get(1);
    assertEquals("C2", c2.id());
    assertEquals(new Flow(3, 0, 1.875e8), c2.flows().get(0));
    assertEquals(6.875e8, c2.totalBytes());
  }

  @Test
  void appliesDefaultsAndIgnoresExtraFields() throws Exception {
    Instance instance =
        InstanceReader.parse(
            json(
                "{'version': 7, 'hosts': [{'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': 2,"
                    + " 'rack': 'a', 'reducerSlots': null}, {'id': 'M2', 'inBytesPerSec': 1,"
                    + " 'outBytesPerSec': 2, 'reducerSlots': 3.0, 'canHostReducers': true}],"
                    + " 'coflows': [{'id': 'C1', 'arrival': 1.5, 'reducers': [{'id': 'r1',"
                    + " 'pinnedHost': null}, {'id': 'r2', 'pinnedHost': 'M2', 'x': 1}],"
                    + " 'flows': [{'src': 'M2', 'reducer': 'r2', 'bytes': 0, 'note': 'z'}]}]}"));
    assertEquals(new Host("M1", 1, 2, Host.UNLIMITED_SLOTS, true), instance.hosts().get(0));
    assertEquals(new Host("M2", 1, 2, 3, true), instance.hosts().get(1));
    assertEquals(Reducer.free("r1"), instance.coflows().get(0).reducers().get(0));
    assertEquals(new Reducer("r2", 1), instance.coflows().get(0).reducers().get(1));
    assertEquals(new Flow(1, 1, 0), instance.coflows().get(0).flows().get(0));
  }

  @Test
  void acceptsASilentSenderWhoseFlowCanBeLocal() throws Exception {
    String hosts = "{'id': 'M1', 'inBytesPerSec': 0, 'outBytesPerSec': 0}";
    Instance instance =
        InstanceReader.parse(
            instance(hosts, REDUCERS, "{'src': 'M1', 'reducer': 'C1.r1', 'bytes': 5}"));
    assertEquals(1, instance.hosts().size());
  }

  @Test
  void acceptsAnEmptyInstance() throws Exception {
    Instance instance = InstanceReader.parse("{\"hosts\": [], \"coflows\": []}");
    assertTrue(instance.coflows().isEmpty());
  }

  // ---- malformed JSON ----

  @Test
  void rejectsMalformedJsonWithLineAndColumn() {
    InstanceFormatException e =
        assertThrows(
            InstanceFormatException.class, () -> InstanceReader.parse("{\n  \"hosts\": [,]\n}"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "malformed JSON at line 2, column 13: Unexpected character (',' (code 44)):"
                    + " expected a valid value"),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void rejectsTruncatedJson() {
    assertRejected(
        "{\"hosts\": [",
        "malformed JSON at line 1, column 12: Unexpected end-of-input: expected close marker for"
            + " Array");
  }

  @Test
  void rejectsTrailingContent() {
    InstanceFormatException e =
        assertThrows(
            InstanceFormatException.class,
            () -> InstanceReader.parse("{\"hosts\": [], \"coflows\": []} {}"));
    assertEquals(
        "malformed JSON at line 1, column 30: unexpected content after the end of the instance"
            + " object",
        e.getMessage());
  }

  @Test
  void rejectsEmptyInput() {
    assertRejected("", "malformed JSON: the input is empty");
  }

  @Test
  void rejectsANonObjectRoot() {
    assertRejected("[1, 2]", "instance: expected an object, got an array");
  }

  // ---- missing or wrongly typed fields ----

  @Test
  void rejectsMissingTopLevelField() {
    assertRejected("{\"hosts\": []}", "coflows: required field is missing");
  }

  @Test
  void rejectsMissingHostField() {
    assertRejected(
        instance("{'id': 'M1', 'outBytesPerSec': 1}", REDUCERS, FLOWS),
        "hosts[0].inBytesPerSec: required field is missing");
  }

  @Test
  void rejectsMissingFlowField() {
    assertRejected(
        instance(HOSTS, REDUCERS, "{'src': 'S1', 'bytes': 10}"),
        "coflows[0].flows[0].reducer: required field is missing");
  }

  @Test
  void rejectsWronglyTypedNumber() {
    assertRejected(
        instance("{'id': 'M1', 'inBytesPerSec': 'fast', 'outBytesPerSec': 1}", REDUCERS, FLOWS),
        "hosts[0].inBytesPerSec: expected a number, got string \"fast\"");
  }

  @Test
  void rejectsNullBytes() {
    assertRejected(
        instance(HOSTS, REDUCERS, "{'src': 'S1', 'reducer': 'C1.r1', 'bytes': null}"),
        "coflows[0].flows[0].bytes: expected a number, got null");
  }

  @Test
  void rejectsNumericId() {
    assertRejected(
        instance("{'id': 7, 'inBytesPerSec': 1, 'outBytesPerSec': 1}", REDUCERS, FLOWS),
        "hosts[0].id: expected a string, got 7");
  }

  @Test
  void rejectsEmptyId() {
    assertRejected(
        instance(HOSTS, "{'id': ''}", FLOWS),
        "coflows[0].reducers[0].id: expected a non-empty string, got \"\"");
  }

  @Test
  void rejectsWronglyTypedArray() {
    assertRejected(json("{'hosts': {}, 'coflows': []}"), "hosts: expected an array, got an object");
  }

  @Test
  void rejectsWronglyTypedElement() {
    assertRejected(
        instance(HOSTS, REDUCERS, "'S1'"),
        "coflows[0].flows[0]: expected an object, got string \"S1\"");
  }

  @Test
  void rejectsFractionalSlots() {
    assertRejected(
        instance(
            "{'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': 1, 'reducerSlots': 2.5}",
            REDUCERS,
            FLOWS),
        "hosts[0].reducerSlots: expected an integer, got 2.5");
  }

  @Test
  void rejectsWronglyTypedBoolean() {
    assertRejected(
        instance(
            "{'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': 1, 'canHostReducers': 'yes'}",
            REDUCERS,
            FLOWS),
        "hosts[0].canHostReducers: expected true or false, got string \"yes\"");
  }

  @Test
  void rejectsWronglyTypedPinnedHost() {
    assertRejected(
        instance(HOSTS, "{'id': 'C1.r1', 'pinnedHost': 0}", FLOWS),
        "coflows[0].reducers[0].pinnedHost: expected a host id or null, got 0");
  }

  // ---- duplicate ids ----

  @Test
  void rejectsDuplicateHostId() {
    assertRejected(
        instance(
            HOSTS + ", {'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': 1}", REDUCERS, FLOWS),
        "hosts[2].id: duplicate host id \"M1\" (first at hosts[0])");
  }

  @Test
  void rejectsDuplicateReducerIdAcrossCoflows() {
    assertRejected(
        json(
            "{'hosts': ["
                + HOSTS
                + "], 'coflows': [{'id': 'C1', 'arrival': 0, 'reducers': [{'id': 'r'}], 'flows':"
                + " []}, {'id': 'C2', 'arrival': 0, 'reducers': [{'id': 'r'}], 'flows': []}]}"),
        "coflows[1].reducers[0].id: duplicate reducer id \"r\" (first at coflows[0].reducers[0])");
  }

  @Test
  void rejectsDuplicateCoflowId() {
    assertRejected(
        json(
            "{'hosts': ["
                + HOSTS
                + "], 'coflows': [{'id': 'C1', 'arrival': 0, 'reducers': [], 'flows': []},"
                + " {'id': 'C1', 'arrival': 0, 'reducers': [], 'flows': []}]}"),
        "coflows[1].id: duplicate coflow id \"C1\" (first at coflows[0])");
  }

  @Test
  void rejectsDuplicateJsonKey() {
    InstanceFormatException e =
        assertThrows(
            InstanceFormatException.class,
            () -> InstanceReader.parse("{\"hosts\": [], \"hosts\": [], \"coflows\": []}"));
    assertTrue(e.getMessage().startsWith("malformed JSON at line 1"), e.getMessage());
    assertTrue(e.getMessage().contains("'hosts'"), e.getMessage());
  }

  // ---- references ----

  @Test
  void rejectsUnknownSourceHost() {
    assertRejected(
        instance(HOSTS, REDUCERS, FLOWS + ", {'src': 'S9', 'reducer': 'C1.r1', 'bytes': 1}"),
        "coflows[0].flows[1].src: unknown host \"S9\"");
  }

  @Test
  void rejectsUnknownReducer() {
    assertRejected(
        instance(HOSTS, REDUCERS, "{'src': 'S1', 'reducer': 'C1.r9', 'bytes': 1}"),
        "coflows[0].flows[0].reducer: unknown reducer \"C1.r9\"");
  }

  @Test
  void rejectsReducerOfAnotherCoflow() {
    assertRejected(
        json(
            "{'hosts': ["
                + HOSTS
                + "], 'coflows': [{'id': 'C1', 'arrival': 0, 'reducers': [{'id': 'a'}], 'flows':"
                + " [{'src': 'S1', 'reducer': 'b', 'bytes': 1}]}, {'id': 'C2', 'arrival': 0,"
                + " 'reducers': [{'id': 'b'}], 'flows': []}]}"),
        "coflows[0].flows[0].reducer: reducer \"b\" belongs to coflow \"C2\", not \"C1\"");
  }

  // ---- numbers out of range ----

  @Test
  void rejectsNegativeBytes() {
    assertRejected(
        instance(HOSTS, REDUCERS, "{'src': 'S1', 'reducer': 'C1.r1', 'bytes': -5}"),
        "coflows[0].flows[0].bytes: must be a finite number >= 0, got -5");
  }

  @Test
  void rejectsNonFiniteBytes() {
    assertRejected(
        instance(HOSTS, REDUCERS, "{'src': 'S1', 'reducer': 'C1.r1', 'bytes': NaN}"),
        "coflows[0].flows[0].bytes: must be a finite number >= 0, got NaN");
  }

  @Test
  void rejectsOverflowingBandwidth() {
    assertRejected(
        instance("{'id': 'M1', 'inBytesPerSec': 1e400, 'outBytesPerSec': 1}", REDUCERS, FLOWS),
        "hosts[0].inBytesPerSec: must be a finite number >= 0, got Infinity");
  }

  @Test
  void rejectsNegativeBandwidth() {
    assertRejected(
        instance("{'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': -1.5}", REDUCERS, FLOWS),
        "hosts[0].outBytesPerSec: must be a finite number >= 0, got -1.5");
  }

  @Test
  void rejectsNegativeArrival() {
    assertRejected(
        json(
            "{'hosts': ["
                + HOSTS
                + "], 'coflows': [{'id': 'C1', 'arrival': -1, 'reducers': [], 'flows': []}]}"),
        "coflows[0].arrival: must be a finite number >= 0, got -1");
  }

  @Test
  void rejectsNegativeSlots() {
    assertRejected(
        instance(
            "{'id': 'M1', 'inBytesPerSec': 1, 'outBytesPerSec': 1, 'reducerSlots': -1}",
            REDUCERS,
            FLOWS),
        "hosts[0].reducerSlots: must be >= 0, got -1");
  }

  // ---- pinned reducers ----

  @Test
  void rejectsUnknownPinnedHost() {
    assertRejected(
        instance(HOSTS, "{'id': 'C1.r1', 'pinnedHost': 'M9'}", FLOWS),
        "coflows[0].reducers[0].pinnedHost: unknown host \"M9\"");
  }

  @Test
  void rejectsPinnedHostThatCannotHostReducers() {
    assertRejected(
        instance(HOSTS, "{'id': 'C1.r1', 'pinnedHost': 'S1'}", FLOWS),
        "coflows[0].reducers[0].pinnedHost: host \"S1\" cannot host reducers"
            + " (canHostReducers is false)");
  }

  @Test
  void rejectsPinnedHostWithoutSlots() {
    assertRejected(
        instance(
            HOSTS + ", {'id': 'M2', 'inBytesPerSec': 1, 'outBytesPerSec': 1, 'reducerSlots': 0}",
            "{'id': 'C1.r1', 'pinnedHost': 'M2'}",
            FLOWS),
        "coflows[0].reducers[0].pinnedHost: host \"M2\" cannot host reducers (reducerSlots is 0)");
  }

  @Test
  void rejectsPinnedHostThatCannotReceive() {
    assertRejected(
        instance(
            HOSTS + ", {'id': 'M2', 'inBytesPerSec': 0, 'outBytesPerSec': 1}",
            "{'id': 'C1.r1', 'pinnedHost': 'M2'}",
            FLOWS),
        "coflows[0].reducers[0].pinnedHost: host \"M2\" has inBytesPerSec 0 but reducer"
            + " \"C1.r1\" must fetch bytes from other hosts");
  }

  // ---- links and hosts that make a coflow impossible ----

  @Test
  void rejectsSilentSenderWhoseFlowCannotBeLocal() {
    String hosts =
        "{'id': 'M1', 'inBytesPerSec': 100, 'outBytesPerSec': 100},"
            + " {'id': 'S1', 'inBytesPerSec': 100, 'outBytesPerSec': 0, 'canHostReducers': false}";
    assertRejected(
        instance(hosts, REDUCERS, "{'src': 'S1', 'reducer': 'C1.r1', 'bytes': 1.25e8}"),
        "coflows[0].flows[0].src: host \"S1\" has outBytesPerSec 0 and reducer \"C1.r1\" cannot"
            + " run there (canHostReducers is false there), so the flow's 125000000 bytes can"
            + " never be sent");
  }

  @Test
  void rejectsSilentSenderWhenReducerIsPinnedElsewhere() {
    String hosts =
        "{'id': 'M1', 'inBytesPerSec': 100, 'outBytesPerSec': 100},"
            + " {'id': 'M2', 'inBytesPerSec': 100, 'outBytesPerSec': 0}";
    assertRejected(
        instance(
            hosts,
            "{'id': 'C1.r1', 'pinnedHost': 'M1'}",
            "{'src': 'M2', 'reducer': 'C1.r1', 'bytes': 2.5}"),
        "coflows[0].flows[0].src: host \"M2\" has outBytesPerSec 0 and reducer \"C1.r1\" cannot"
            + " run there (pinned to \"M1\"), so the flow's 2.5 bytes can never be sent");
  }

  @Test
  void rejectsReducerWithoutEligibleHost() {
    String hosts =
        "{'id': 'M1', 'inBytesPerSec': 0, 'outBytesPerSec': 100},"
            + " {'id': 'S1', 'inBytesPerSec': 100, 'outBytesPerSec': 100, 'canHostReducers': false}";
    assertRejected(
        instance(hosts, REDUCERS, FLOWS),
        "coflows[0].reducers[0]: reducer \"C1.r1\" has no eligible host: no host with"
            + " canHostReducers and reducerSlots > 0 has inBytesPerSec > 0");
  }

  @Test
  void rejectsReducerFedByTwoSilentSenders() {
    String hosts =
        "{'id': 'M1', 'inBytesPerSec': 100, 'outBytesPerSec': 0},"
            + " {'id': 'M2', 'inBytesPerSec': 100, 'outBytesPerSec': 0}";
    assertRejected(
        instance(
            hosts,
            REDUCERS,
            "{'src': 'M1', 'reducer': 'C1.r1', 'bytes': 1}, {'src': 'M2', 'reducer': 'C1.r1',"
                + " 'bytes': 1}"),
        "coflows[0].reducers[0]: reducer \"C1.r1\" has no eligible host: its flows from \"M1\","
            + " \"M2\" must all be local, as those have outBytesPerSec 0");
  }

  @Test
  void rejectsZeroTotalSlots() {
    String hosts =
        "{'id': 'M1', 'inBytesPerSec': 100, 'outBytesPerSec': 100, 'reducerSlots': 0},"
            + " {'id': 'S1', 'inBytesPerSec': 100, 'outBytesPerSec': 100, 'canHostReducers': false}";
    assertRejected(
        instance(hosts, REDUCERS, FLOWS),
        "hosts: the hosts that can host reducers have 0 reducerSlots in total, but the coflows"
            + " have 1 reducers");
  }

  @Test
  void readsFromAStream() throws Exception {
    try (var in = Files.newInputStream(Examples.fig1())) {
      assertNotNull(InstanceReader.read(in));
    }
  }
}
