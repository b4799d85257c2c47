/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The Spark application behind {@code coflow terasort}, run through {@code spark-submit}:
 *
 * <ul>
 *   <li>{@code gen DIR ROWS PARTS RESULT}: TeraGen, writes the checksum to RESULT;
 *   <li>{@code sort IN OUT JOBS REDUCERS GEN_JSON RESULT stock|plugin [mixed|same [HOSTS]]}: JOBS
 *       TeraSorts of IN at once (one job group each; with {@code mixed}, job j sorts the first
 *       (j+1)/JOBS of the parts; with HOSTS, a comma-separated list, part i is read on host i mod
 *       n, as if stored there), then TeraValidate of each output against GEN_JSON's per-part
 *       checksums; writes per job the reduce stage's time, the wall time, the hosts its reduce
 *       tasks ran on, and how many of them ran where the coordinator placed them (with {@code
 *       plugin}); per reduce stage when it started, the bytes its map tasks wrote on each host and
 *       each reduce task's host and bytes read (a flow model of the run's own layout needs them);
 *       and how many map tasks the sorts ran again to recompute lost map output.
 * </ul>
 *
 * <p>With the driver's system property {@code coflow.hold} naming a file, the sort then writes its
 * application id and UI address there and waits for that file's {@code .go} sibling ({@link Hold}):
 * how a test looks at its Spark UI.
 */
public final class TerasortApp {

  private TerasortApp() {}

  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf())) {
      if (args[0].equals("gen")) {
        List<Checksum> parts =
            TeraGen.run(sc, args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]));
        ObjectNode gen = json.createObjectNode();
        Checksum sum = parts.stream().reduce(Checksum.ZERO, Checksum::plus);
        gen.put("records", sum.records());
        gen.put("crcSum", sum.crcSum());
        ArrayNode perPart = gen.putArray("parts");
        for (Checksum c : parts) {
          perPart.addObject().put("records", c.records()).put("crcSum", c.crcSum());
        }
        json.writeValue(new File(args[4]), gen);
        return;
      }
      ReduceTaskLog log = new ReduceTaskLog();
      sc.sc().addSparkListener(log);
      RecomputedMaps recomputed = new RecomputedMaps();
      sc.sc().addSparkListener(recomputed);
      String in = args[1];
      String out = args[2];
      int jobs = Integer.parseInt(args[3]);
      int reducers = Integer.parseInt(args[4]);
      JsonNode gen = json.readTree(new File(args[5]));
      String resultFile = args[6];
      boolean plugin = args[7].equals("plugin");
      if (plugin) {
        FetchEnds.listen(sc.sc());
      }
      boolean mixed = args.length > 8 && args[8].equals("mixed");
      List<String> inputHosts =
          args.length > 9 && !args[9].equals("-") ? List.of(args[9].split(",")) : List.of();
      // Job j sorts all parts, or with "mixed" the first (j + 1) / jobs of them: coflows of
      // different sizes, as in the RPC paper's testbed.
      JsonNode parts = gen.get("parts");
      String[] inputs = new String[jobs];
      Checksum[] expected = new Checksum[jobs];
      for (int j = 0; j < jobs; j++) {
        int k =
            mixed ? Math.max(1, (int) Math.round(parts.size() * (j + 1.0) / jobs)) : parts.size();
        StringBuilder paths = new StringBuilder();
        Checksum sum = Checksum.ZERO;
        for (int p = 0; p < k; p++) {
          paths.append(p == 0 ? "" : ",").append(in).append(String.format("/part-%05d", p));
          sum =
              sum.plus(
                  new Checksum(
                      parts.get(p).get("records").asLong(), parts.get(p).get("crcSum").asLong()));
        }
        inputs[j] = paths.toString();
        expected[j] = sum;
      }
      ExecutorService pool = Executors.newFixedThreadPool(jobs);
      List<Future<Double>> walls = new ArrayList<>();
      long[] lastFetch = new long[jobs];
      long start = System.nanoTime();
      for (int j = 0; j < jobs; j++) {
        String group = "terasort-" + j;
        String dir = out + "/job-" + j;
        String input = inputs[j];
        int job = j;
        walls.add(
            pool.submit(
                () -> {
                  sc.setJobGroup(group, group, false);
                  long t0 = System.nanoTime();
                  lastFetch[job] =
                      TeraSort.run(sc, input, dir, reducers, inputHosts).lastFetchMillis();
                  return (System.nanoTime() - t0) / 1e9;
                }));
      }
      List<Double> wall = new ArrayList<>();
      for (Future<Double> f : walls) {
        wall.add(f.get());
      }
      double allSeconds = (System.nanoTime() - start) / 1e9;
      pool.shutdown();
      ReduceTaskLog.drain(sc.sc());

      ObjectNode result = json.createObjectNode();
      result.put("recomputedMapTasks", recomputed.count()); // the sorts', before validating
      ArrayNode perJob = result.putArray("jobs");
      boolean valid = true;
      for (int j = 0; j < jobs; j++) {
        ObjectNode job = perJob.addObject();
        job.put("job", j);
        ReduceTaskLog.Summary sum = log.summary("terasort-" + j, plugin);
        job.put("shuffleSeconds", sum.stageSeconds());
        job.put("fetchSeconds", (lastFetch[j] - sum.submittedMillis()) / 1000.0);
        double network = plugin ? FetchEnds.seconds(sum) : Double.NaN;
        if (!Double.isNaN(network)) {
          job.put("networkFetchSeconds", network);
        }
        job.put("jobSeconds", wall.get(j));
        job.put("reduceTasks", sum.tasks());
        job.put("placedTasksMatched", sum.placed());
        job.putPOJO("reduceHosts", sum.hosts());
        job.set("shuffles", traffic(json, sum.shuffles()));
        TeraValidate.Result v = TeraValidate.run(sc, out + "/job-" + j, expected[j]);
        job.put("records", expected[j].records());
        job.put("valid", v.ok());
        job.putPOJO("problems", v.problems());
        valid &= v.ok();
      }
      result.put("valid", valid);
      result.put("allJobsSeconds", allSeconds);
      json.writeValue(new File(resultFile), result);
      String hold = System.getProperty("coflow.hold");
      if (hold != null) {
        Hold.until(
            Path.of(hold), sc.sc().applicationId() + " " + sc.sc().uiWebUrl().getOrElse(() -> ""));
      }
    }
  }

  /** A job's reduce stages as JSON: start, map output per host, each reducer's host and bytes. */
  private static ArrayNode traffic(ObjectMapper json, List<ReduceTaskLog.Shuffle> shuffles) {
    ArrayNode out = json.createArrayNode();
    for (ReduceTaskLog.Shuffle s : shuffles) {
      ObjectNode n = out.addObject();
      n.put("shuffle", s.shuffleId());
      n.put("submittedMillis", s.submittedMillis());
      n.put("seconds", s.seconds());
      n.putPOJO("mapOutput", s.mapOutput());
      ArrayNode reducers = n.putArray("reducers");
      for (ReduceTaskLog.Task t : s.tasks()) {
        reducers
            .addObject()
            .put("partition", t.partition())
            .put("host", t.host())
            .put("bytes", t.bytesRead());
      }
    }
    return out;
  }
}
