package org.coflowshuffle.it.terasort;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.coflowshuffle.it.placement.ReduceTaskLog;

/**
 * The Spark application behind {@code coflow terasort}, run through {@code spark-submit}:
 *
 * <ul>
 *   <li>{@code gen DIR ROWS PARTS RESULT}: TeraGen, writes the checksum to RESULT;
 *   <li>{@code sort IN OUT JOBS REDUCERS EXPECTED_RECORDS EXPECTED_CRC RESULT [plugin]}: JOBS
 *       TeraSorts of IN at once (one job group each), then TeraValidate of each output; writes per
 *       job the reduce stage's time, the wall time, and how many reduce tasks ran where the
 *       coordinator placed them (with {@code plugin}).
 * </ul>
 */
public final class TerasortApp {

  private TerasortApp() {}

  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf())) {
      if (args[0].equals("gen")) {
        Checksum sum = TeraGen.run(sc, args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]));
        ObjectNode gen = json.createObjectNode();
        gen.put("records", sum.records());
        gen.put("crcSum", sum.crcSum());
        json.writeValue(new File(args[4]), gen);
        return;
      }
      ReduceTaskLog log = new ReduceTaskLog();
      sc.sc().addSparkListener(log);
      String in = args[1];
      String out = args[2];
      int jobs = Integer.parseInt(args[3]);
      int reducers = Integer.parseInt(args[4]);
      Checksum expected = new Checksum(Long.parseLong(args[5]), Long.parseLong(args[6]));
      boolean plugin = args.length > 8 && args[8].equals("plugin");
      ExecutorService pool = Executors.newFixedThreadPool(jobs);
      List<Future<Double>> walls = new ArrayList<>();
      long start = System.nanoTime();
      for (int j = 0; j < jobs; j++) {
        String group = "terasort-" + j;
        String dir = out + "/job-" + j;
        walls.add(
            pool.submit(
                () -> {
                  sc.setJobGroup(group, group, false);
                  long t0 = System.nanoTime();
                  TeraSort.run(sc, in, dir, reducers);
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
      ArrayNode perJob = result.putArray("jobs");
      boolean valid = true;
      for (int j = 0; j < jobs; j++) {
        ObjectNode job = perJob.addObject();
        job.put("job", j);
        ReduceTaskLog.Summary sum = log.summary("terasort-" + j, plugin);
        job.put("shuffleSeconds", sum.stageSeconds());
        job.put("jobSeconds", wall.get(j));
        job.put("reduceTasks", sum.tasks());
        job.put("placedTasksMatched", sum.placed());
        TeraValidate.Result v = TeraValidate.run(sc, out + "/job-" + j, expected);
        job.put("valid", v.ok());
        job.putPOJO("problems", v.problems());
        valid &= v.ok();
      }
      result.put("valid", valid);
      result.put("allJobsSeconds", allSeconds);
      json.writeValue(new File(args[7]), result);
    }
  }
}
