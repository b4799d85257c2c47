/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Facebook trace against the statistics its provenance note states, and malformed traces. */
class CoflowTraceTest {

  @TempDir Path dir;

  @Test
  void theFacebookTraceHasItsDocumentedShape() throws Exception {
    CoflowTrace trace = CoflowTrace.facebook();
    assertEquals(150, trace.ports());
    assertEquals(526, trace.coflows().size());
    long flows = 0;
    double megabytes = 0;
    for (TraceCoflow c : trace.coflows()) {
      flows += (long) c.mapperPorts().size() * c.reducerPorts().size();
      for (double mb : c.reducerMegabytes()) {
        megabytes += mb;
      }
    }
    assertEquals(706_397, flows);
    assertEquals(35_533_534, megabytes, 1.0);
    assertEquals("1", trace.coflows().get(0).id());
    assertEquals(10_833, trace.coflows().get(1).arrivalMillis());
  }

  @Test
  void theBundledTraceIsTheUpstreamFileByteForByte() throws Exception {
    byte[] bytes;
    try (var in = CoflowTrace.class.getResourceAsStream(CoflowTrace.FACEBOOK_RESOURCE)) {
      bytes = in.readAllBytes();
    }
    assertEquals(137_746, bytes.length);
    // The MD5 that PROVENANCE.txt gives for coflow/coflow-benchmark's copy.
    assertEquals(
        "1ebd958042231f38b87462366a4cb1d1",
        HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes)));
  }

  private String error(String text) throws Exception {
    Path file = dir.resolve("t.txt");
    Files.writeString(file, text);
    return assertThrows(CoflowTrace.TraceFormatException.class, () -> CoflowTrace.read(file))
        .getMessage();
  }

  @Test
  void malformedTracesNameTheLineAndTheProblem() throws Exception {
    assertTrue(error("").endsWith(": empty trace"));
    assertTrue(error("150\n").contains(":1: expected \"<ports> <coflows>\""), error("150\n"));
    assertTrue(error("2 1\n1 0 1 5 1 0:1.0\n").contains(":2: mapper port 5 is not a port of 0..1"));
    assertTrue(
        error("2 1\n1 0 1 0 1 1\n").contains(":2: reducer \"1\": expected <port>:<megabytes>"));
    assertTrue(error("2 1\n1 0 1 0 1 1:-3\n").contains(":2: reducer \"1:-3\": megabytes must be"));
    assertTrue(
        error("2 2\n1 0 1 0 1 1:1\n").contains(":1: header says 2 coflows but the file has 1"));
    assertTrue(error("2 1\n1 x 1 0 1 1:1\n").contains(":2: arrival: expected milliseconds"));
    assertTrue(error("2 1\n1 0 1 0 1 1:1 extra\n").contains(":2: 1 unexpected fields"));
  }
}
