/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prometheus text, read by the parser of the Prometheus project's own Python client (PyPI package
 * {@code prometheus_client}, installed on first use under {@code target/python}): what a
 * Prometheus-compatible scraper accepts, not what a test of ours thinks the format is.
 *
 * @param samples each sample's value, keyed {@code name{label="value",...}} with labels sorted
 * @param types each family's type, keyed by the family's name
 */
record PrometheusText(Map<String, Double> samples, Map<String, String> types) {

  private static final String VERSION = "0.23.1";

  private static final String PARSE =
      """
      import json, sys
      from prometheus_client.parser import text_string_to_metric_families
      samples, types = {}, {}
      for f in text_string_to_metric_families(sys.stdin.read()):
          types[f.name] = f.type
          for s in f.samples:
              labels = ",".join('%s="%s"' % kv for kv in sorted(s.labels.items()))
              samples[s.name + ("{" + labels + "}" if labels else "")] = s.value
      json.dump({"samples": samples, "types": types}, sys.stdout)
      """;

  /** Parses {@code text}; fails where the parser does. */
  static PrometheusText parse(String text) throws IOException, InterruptedException {
    Path lib = Path.of("target/python/prometheus_client-" + VERSION);
    if (!Files.isDirectory(lib.resolve("prometheus_client"))) {
      run(
          List.of(
              "python3",
              "-m",
              "pip",
              "install",
              "--quiet",
              "--no-deps",
              "--target",
              lib.toString(),
              "prometheus_client==" + VERSION),
          "");
    }
    String json = run(List.of("python3", "-c", PARSE), text, lib);
    JsonNode tree = new ObjectMapper().readTree(json);
    Map<String, Double> samples = new TreeMap<>();
    tree.get("samples")
        .fields()
        .forEachRemaining(e -> samples.put(e.getKey(), e.getValue().asDouble()));
    Map<String, String> types = new TreeMap<>();
    tree.get("types").fields().forEachRemaining(e -> types.put(e.getKey(), e.getValue().asText()));
    return new PrometheusText(samples, types);
  }

  /** The value of one sample; fails when there is none. */
  double value(String series) {
    Double v = samples.get(series);
    if (v == null) {
      throw new AssertionError("no sample " + series + " in " + samples.keySet());
    }
    return v;
  }

  private static String run(List<String> command, String input, Path... pythonPath)
      throws IOException, InterruptedException {
    // pip's chatter is the failure's message; the parser's traceback goes to the test's log
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(pythonPath.length == 0);
    if (pythonPath.length > 0) {
      b.redirectError(ProcessBuilder.Redirect.INHERIT);
      b.environment().put("PYTHONPATH", pythonPath[0].toAbsolutePath().toString());
    }
    Process p = b.start();
    try (var in = p.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new AssertionError(String.join(" ", command.subList(0, 2)) + " failed: " + out);
    }
    return out;
  }
}
