/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.coflowshuffle.config.ConfigDocs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoordinatorConfTest {

  @Test
  void defaultsListenOnLoopbackWithoutASecret() {
    CoordinatorConf c = CoordinatorConf.from(Map.of());
    assertEquals(7390, c.port());
    assertEquals(7391, c.httpPort());
    assertTrue(c.bind().isLoopbackAddress());
    assertFalse(c.secrets().any());
    assertEquals("rpc", c.scheme());
    assertEquals(125L << 20, c.hostBytesPerSecond());
    assertEquals(1 << 20, c.maxFrameBytes());
    assertEquals(30.0, c.clientTimeoutSeconds());
    assertEquals(60.0, c.options().starvationThreshold());
  }

  @Test
  void aSecretOpensAllInterfacesButNotTheStatusPages() {
    CoordinatorConf c = CoordinatorConf.from(Map.of("coflow.coordinator.secret", "x"));
    assertTrue(c.bind().isAnyLocalAddress());
    assertTrue(c.httpBind().isLoopbackAddress(), "the pages stay on loopback");
    assertNull(c.httpToken());
    CoordinatorConf open =
        CoordinatorConf.from(
            Map.of(
                "coflow.coordinator.httpBindAddress", "0.0.0.0",
                "coflow.coordinator.httpToken", "t"));
    assertTrue(open.httpBind().isAnyLocalAddress());
    assertEquals("t", open.httpToken());
    assertRefused("coflow.coordinator.httpToken", "");
  }

  @Test
  void aSecretsFileIsReadStrictly(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("secrets");
    Files.writeString(file, "# comment\n\nteam-a=alpha\n  app_1@x = beta=2 \n");
    CoordinatorConf c =
        CoordinatorConf.from(Map.of("coflow.coordinator.secretsFile", file.toString()));
    assertEquals(Map.of("team-a", "alpha", "app_1@x", "beta=2"), c.secrets().byPrincipal());
    assertTrue(c.bind().isAnyLocalAddress(), "principals' secrets open all interfaces");
    for (String bad : List.of("team-a\n", "=x\n", "a=1\na=2\n", "a b=1\n")) {
      Files.writeString(file, bad);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  CoordinatorConf.from(Map.of("coflow.coordinator.secretsFile", file.toString())));
      assertTrue(e.getMessage().startsWith(file + " line "), e.getMessage());
    }
  }

  @Test
  void openingWithoutASecretMustBeAsked() {
    Map<String, String> open = Map.of("coflow.coordinator.bindAddress", "0.0.0.0");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CoordinatorConf.from(open));
    assertTrue(e.getMessage().contains("coflow.coordinator.openWithoutSecret"), e.getMessage());
    CoordinatorConf c =
        CoordinatorConf.from(
            Map.of(
                "coflow.coordinator.bindAddress", "0.0.0.0",
                "coflow.coordinator.openWithoutSecret", "true"));
    assertTrue(c.bind().isAnyLocalAddress());
  }

  @Test
  void valuesAreParsedWithTheirUnits() {
    CoordinatorConf c =
        CoordinatorConf.from(
            Map.of(
                "coflow.coordinator.hostBandwidth", "w1=62m, w2=1g",
                "coflow.coordinator.clientTimeout", "1500ms",
                "coflow.coordinator.starvationThreshold", "2min",
                "coflow.coordinator.scheme", "varys"));
    assertEquals(Map.of("w1", 62.0 * (1 << 20), "w2", (double) (1L << 30)), c.hostBandwidth());
    assertEquals(1.5, c.clientTimeoutSeconds(), 1e-9);
    assertEquals(120.0, c.options().starvationThreshold(), 1e-9);
    assertEquals("varys", c.scheme());
  }

  @Test
  void invalidValuesNameTheirKey() {
    assertRefused("coflow.coordinator.port", "70000");
    assertRefused("coflow.coordinator.scheme", "lifo");
    assertRefused("coflow.coordinator.defaultBandwidth", "0");
    assertRefused("coflow.coordinator.defaultBandwidth", "12 parsecs");
    assertRefused("coflow.coordinator.hostBandwidth", "w1");
    assertRefused("coflow.coordinator.clientTimeout", "-1s");
    assertRefused("coflow.coordinator.minAvailableFraction", "0");
    assertRefused("coflow.coordinator.workConserving", "yes");
    assertRefused("coflow.coordinator.secret", "");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoordinatorConf.from(Map.of("coflow.coordinator.prot", "1")));
    assertTrue(e.getMessage().contains("coflow.coordinator.prot"), e.getMessage());
  }

  /**
   * docs/configuration.md holds what {@link ConfigDocs} renders from the keys; run with {@code
   * -Dcoflow.docs.update=true} to rewrite it after changing a key.
   */
  @Test
  void theReferenceMatchesTheKeys() throws Exception {
    Path file = Path.of("../..", "docs", "configuration.md");
    String section =
        ConfigDocs.section(
            "Standalone coordinator (`coflow.coordinator.*`)",
            "Read by `bin/coflow coordinator` from `--conf FILE` (Java properties) and `-D` flags;"
                + " see docs/protocol.md for what clients send.",
            CoordinatorConf.KEYS);
    assertEquals(
        section, ConfigDocs.current(file, "coordinator", section), "docs/configuration.md drifted");
  }

  private static void assertRefused(String key, String value) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CoordinatorConf.from(Map.of(key, value)), value);
    assertTrue(e.getMessage().startsWith(key), e.getMessage());
  }
}
