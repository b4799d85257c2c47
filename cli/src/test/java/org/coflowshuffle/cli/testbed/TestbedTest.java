/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TestbedTest {

  private static final String MARK = "# coflow testbed";

  @Test
  void hostsBlockIsAddedMarkedAndRemovedExactly() {
    String original = "127.0.0.1 localhost\n\n# mine\n10.0.0.5 db\n";
    String up = Testbed.withBlock(original, MARK, "10.77.0.11 h1\n10.77.0.12 h2\n");
    assertEquals(original + "10.77.0.11 h1 " + MARK + "\n10.77.0.12 h2 " + MARK + "\n", up);
    assertEquals(original, Testbed.withBlock(up, MARK, ""), "down restores the file");
    assertEquals(
        original + "10.77.0.13 h3 " + MARK + "\n",
        Testbed.withBlock(up, MARK, "10.77.0.13 h3"),
        "a second up replaces the block instead of adding to it");
  }

  @Test
  void emptyOrUnterminatedFiles() {
    assertEquals("a b " + MARK + "\n", Testbed.withBlock("", MARK, "a b"));
    assertEquals("127.0.0.1 localhost\n", Testbed.withBlock("127.0.0.1 localhost", MARK, ""));
  }
}
