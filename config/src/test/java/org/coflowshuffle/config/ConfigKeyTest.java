/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {

  @Test
  void sizesAreBinaryAndDurationsTakeUnits() {
    assertEquals(125L << 20, ConfigKey.bytes("125m"));
    assertEquals(1L << 30, ConfigKey.bytes(" 1GB "));
    assertEquals(512L, ConfigKey.bytes("512"));
    assertEquals(0.5, ConfigKey.duration("500ms"));
    assertEquals(120.0, ConfigKey.duration("2min"));
    assertEquals(30.0, ConfigKey.duration("30"));
    assertEquals(Map.of("a", 1024.0, "b", 2.0), ConfigKey.hostSizes("a=1k, b=2"));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.bytes("0"));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.bytes("12 parsecs"));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.duration("-1s"));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.hostSizes("a"));
  }

  @Test
  void readingGivesTheValueTheDefaultOrAnErrorNamingKeyAndValue() {
    ConfigKey<Integer> port = ConfigKey.integer("x.port", 7, 1, 10, "1.0", "A port.");
    ConfigKey<String> unset = ConfigKey.of("x.name", "string", null, "1.0", "A name.", s -> s);
    assertEquals(7, port.read(Map.of()));
    assertEquals(9, port.read(Map.of("x.port", "9")));
    assertNull(unset.read(Map.of()));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> port.read(Map.of("x.port", "11")));
    assertEquals("x.port=11: must be in [1, 10]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> port.read(Map.of("x.port", "nine")));
    assertTrue(e.getMessage().startsWith("x.port=nine: "), e.getMessage());
  }

  @Test
  void theReferenceIsATableBetweenMarkers() {
    ConfigKey<Boolean> flag = ConfigKey.bool("x.flag", false, "1.0", "Turns | it on.");
    String section = ConfigDocs.section("X", "Intro.", List.of(flag));
    assertTrue(section.contains("| `x.flag` | boolean | `false` | 1.0 | Turns \\| it on. |"));
    String doc = "# T\n<!-- begin x -->\nold\n<!-- end x -->\n";
    String updated = ConfigDocs.replace(doc, "x", section);
    assertEquals(section, ConfigDocs.between(updated, "x"));
    assertTrue(updated.startsWith("# T\n<!-- begin x -->\n## X"));
    assertThrows(IllegalArgumentException.class, () -> ConfigDocs.between(doc, "y"));
  }
}
