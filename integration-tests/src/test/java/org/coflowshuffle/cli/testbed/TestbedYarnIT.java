/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coflowshuffle.cli.spark.SparkDistribution;
import org.coflowshuffle.cli.spark.SparkSubmit;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.app.TerasortApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Real YARN on a three-host testbed (needs root, as CI has): a ResourceManager, a NodeManager per
 * host running the coflow shuffle service, and terasort through {@code spark-submit --master yarn}
 * with the plugin, the external shuffle service on. Its own testbed prefix, subnet and host names,
 * so it never touches a testbed someone has up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestbedYarnIT {

  private static final int EXECUTOR_MB = 640;
  private static final Pattern PACED = Pattern.compile("coflow: (\\d+) bytes of shuffle blocks");

  private final Testbed testbed = new Testbed("cfy", "10.79.0");
  private final ObjectMapper json = new ObjectMapper();
  private List<HostLink> hosts;
  private TestbedYarn yarn;
  private Path spark;
  private TerasortCommand.Jars jars;
  private Path work;
  private Path gen;

  @BeforeAll
  void startYarnAndGenerate() throws Exception {
    Path root = Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
    spark = SparkDistribution.home(root, System.err);
    jars = TerasortCommand.Jars.find(root);
    work = Files.createDirectories(root.resolve("integration-tests/target/it-work/yarn"));
    String hadoop = TestbedYarn.hadoopClassPath(root);
    testbed.down();
    hosts = testbed.hosts(TestbedProfile.rates("homogeneous", 3, 100));
    testbed.up(hosts);
    yarn =
        TestbedYarn.start(
            hadoop,
            testbed.gateway(),
            hosts,
            new TestbedYarn.Nodes(
                EXECUTOR_MB,
                TestbedYarn.coflowService(
                    jars.service(),
                    Map.of(
                        "spark.shuffle.push.server.mergedShuffleFileManagerImpl",
                        "org.apache.spark.network.shuffle.RemoteBlockPushResolver"))),
            work.resolve("daemons"));
    gen = work.resolve("gen.json");
    Files.deleteIfExists(gen);
    assertEquals(
        0,
        submit(false)
            .run(
                List.of("gen", work.resolve("in").toString(), "300000", "6", gen.toString()),
                work.resolve("gen.log")),
        "TeraGen on YARN; see " + work.resolve("gen.log"));
  }

  @AfterAll
  void stop() throws Exception {
    if (yarn != null) {
      yarn.close();
    }
    testbed.down();
  }

  private SparkSubmit submit(boolean plugin) {
    return submit(plugin, Map.of());
  }

  private SparkSubmit submit(boolean plugin, Map<String, String> more, String... unset) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.putAll(yarn.sparkConf(spark, hosts.size(), 1, EXECUTOR_MB));
    conf.putAll(TestbedYarn.serviceConf());
    conf.putAll(more);
    conf.keySet().removeAll(List.of(unset));
    if (plugin) {
      conf.put("spark.shuffle.manager", "org.coflowshuffle.spark.CoflowShuffleManager");
      conf.put("spark.plugins", "org.coflowshuffle.spark.CoflowPlugin");
      conf.putAll(TestbedSpark.linkConf(hosts));
    }
    return new SparkSubmit(
        spark,
        "yarn",
        TerasortApp.class.getName(),
        jars.app(),
        plugin ? List.of(jars.plugin()) : List.of(),
        conf,
        Map.of("HADOOP_CONF_DIR", yarn.confDir().toString()));
  }

  private List<String> sortArgs(String name, Path result) {
    return sortArgs(name, work.resolve("in"), gen, result);
  }

  private List<String> sortArgs(String name, Path in, Path genJson, Path result) {
    return sortArgs(name, in, genJson, result, 3);
  }

  private List<String> sortArgs(String name, Path in, Path genJson, Path result, int reducers) {
    return List.of(
        "sort",
        in.toString(),
        work.resolve("out-" + name).toString(),
        "1",
        Integer.toString(reducers),
        genJson.toString(),
        result.toString(),
        "plugin",
        "same");
  }

  /** The container logs ({@code stderr}) under the NodeManagers' directories. */
  private List<Path> containerLogs() throws IOException {
    List<Path> logs = new ArrayList<>();
    Files.walkFileTree(
        work.resolve("daemons"),
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
            if (f.getFileName().toString().equals("stderr")) {
              logs.add(f);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path f, IOException e) {
            return FileVisitResult.CONTINUE;
          }
        });
    return logs;
  }

  /**
   * Bytes the executors fetched paced: per container log under the NodeManagers' directories, the
   * largest running total it printed. YARN deletes application directories meanwhile, so the walk
   * skips what vanishes under it.
   */
  private long pacedBytes() throws IOException {
    long sum = 0;
    for (Path f : containerLogs()) {
      long most = 0;
      try {
        Matcher m = PACED.matcher(Files.readString(f));
        while (m.find()) {
          most = Math.max(most, Long.parseLong(m.group(1)));
        }
      } catch (NoSuchFileException e) {
        continue; // deleted since the walk
      }
      sum += most;
    }
    return sum;
  }

  /**
   * Sorts the input once as {@code submit} says, its result in {@code NAME.json} and its log in
   * {@code NAME.log}; checks that it succeeded with valid output, and returns the job's result.
   */
  private JsonNode sortOnce(String name, SparkSubmit submit) throws Exception {
    Path result = work.resolve(name + ".json");
    Files.deleteIfExists(result);
    Path log = work.resolve(name + ".log");
    assertEquals(0, submit.run(sortArgs(name, result), log), "see " + log);
    JsonNode job = json.readTree(result.toFile()).get("jobs").get(0);
    assertTrue(job.get("valid").asBoolean(), job.toString());
    return job;
  }

  @Test
  void terasortIsPlacedAndFetchedPacedFromTheNodeManagersService() throws Exception {
    long before = pacedBytes();
    JsonNode job = sortOnce("placed", submit(true));
    assertEquals(3, job.get("reduceTasks").asInt());
    assertEquals(3, job.get("placedTasksMatched").asInt(), "reduce tasks ran where placed");
    double fetch = job.get("fetchSeconds").asDouble();
    assertTrue(
        fetch > 0 && fetch <= job.get("shuffleSeconds").asDouble(),
        "the last fetch ends within the reduce stage: " + job);
    assertTrue(
        pacedBytes() - before > 1_000_000,
        "shuffle blocks came paced from the NodeManagers' service: " + (pacedBytes() - before));
  }

  /**
   * Spark's own YARN shuffle service ({@code spark_shuffle}): its jar comes only with Spark's
   * binary distribution (not with Maven Central or PyPI), so the NodeManagers' coflow service
   * stands for it, with its paced port not named to the plugin. It serves blocks through Spark's
   * own handler, as Spark's service does: the plugin places the reducers, and each executor says
   * once that Spark fetches its blocks unpaced.
   */
  @Test
  void withSparksOwnShuffleServiceReducersArePlacedAndFetchedUnpacedWithOneLine() throws Exception {
    long before = pacedBytes();
    Map<String, Long> saidBefore = unpacedLines();
    JsonNode job = sortOnce("unpaced", submit(true, Map.of(), "spark.coflow.shuffleService.port"));
    assertEquals(3, job.get("placedTasksMatched").asInt(), "reduce tasks ran where placed");
    assertEquals(0, pacedBytes() - before, "Spark fetched every block itself");
    Map<String, Long> said = unpacedLines();
    said.keySet().removeAll(saidBefore.keySet());
    assertFalse(said.isEmpty(), "the executors said why");
    said.forEach((f, n) -> assertEquals(1, n, "one line per executor: " + f));
  }

  /**
   * Per container log, how many times it says the external shuffle service's fetches go unpaced.
   */
  private Map<String, Long> unpacedLines() throws IOException {
    Map<String, Long> said = new TreeMap<>();
    for (Path f : containerLogs()) {
      try {
        long n =
            Files.readAllLines(f).stream()
                .filter(l -> l.contains("the external shuffle service serves them"))
                .count();
        if (n > 0) {
          said.put(f.toString(), n);
        }
      } catch (NoSuchFileException e) {
        continue; // deleted since the walk
      }
    }
    return said;
  }

  /**
   * Push-based shuffle (Spark's, on YARN with the external shuffle service and Kryo): the plugin
   * leaves the application to Spark, which pushes map output to the NodeManagers' coflow service;
   * set up as Spark's own service would be ({@code
   * spark.shuffle.push.server.mergedShuffleFileManagerImpl} in yarn-site.xml), it merges the blocks
   * and the reducers read merged chunks.
   */
  @Test
  void withPushBasedShuffleSparkPlacesAndFetchesMergedBlocksAndSaysSoOnce() throws Exception {
    long before = pacedBytes();
    // Spark pushes blocks of at most 1 MiB, waits for pushes only above 500 MB of shuffle, and
    // merges only with as many merger hosts as it wants (one per reducer here) or 5: the test's
    // blocks of about 1 MiB are pushed, merged before the reducers start, on any 1 host or more.
    Map<String, String> push =
        Map.of(
            "spark.shuffle.push.enabled", "true",
            "spark.serializer", "org.apache.spark.serializer.KryoSerializer",
            "spark.shuffle.push.maxBlockSizeToPush", "16m",
            "spark.shuffle.push.minShuffleSizeToWait", "0",
            "spark.shuffle.push.minCompletedPushRatio", "1.0",
            "spark.shuffle.push.mergersMinStaticThreshold", "1");
    JsonNode job = sortOnce("pushed", submit(true, push));
    Path log = work.resolve("pushed.log");
    String driver = Files.readString(log);
    assertEquals(
        1,
        driver.split("push-based shuffle is on \\(spark.shuffle.push.enabled\\)", -1).length - 1,
        "one line says why: " + log);
    assertEquals(0, job.get("placedTasksMatched").asInt(), "Spark placed the reducers");
    assertEquals(0, pacedBytes() - before, "and fetched every block itself");
    Pattern merged = Pattern.compile("and (\\d+) \\([^)]*\\) push-merged-local");
    long mergedBlocks = 0;
    for (Path f : containerLogs()) {
      try {
        String text = Files.readString(f);
        assertFalse(text.contains("Cannot handle shuffle block merge"), "refused a push: " + f);
        Matcher m = merged.matcher(text);
        while (m.find()) {
          mergedBlocks += Long.parseLong(m.group(1));
        }
      } catch (NoSuchFileException e) {
        continue; // deleted since the walk
      }
    }
    assertTrue(mergedBlocks > 0, "reducers read blocks the service merged");
  }

  @Test
  @Order(Integer.MAX_VALUE) // last: the node stays down, and later jobs would wait for it
  void aNodeManagerKilledMidJobLosesNoOutput() throws Exception {
    Path result = work.resolve("killed.json");
    Files.deleteIfExists(result);
    Path log = work.resolve("killed.log");
    Files.deleteIfExists(log);
    SparkSubmit submit = submit(true);
    CompletableFuture<Integer> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return submit.run(sortArgs("killed", result), log);
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    // When the map stage has finished, the reduce stage fetches its output: kill a node then
    // (not the one running the application master, which would end the application).
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    Pattern mapsDone = Pattern.compile("ShuffleMapStage \\d+ \\(mapToPair[^)]*\\) finished");
    while (!Files.exists(log) || !mapsDone.matcher(Files.readString(log)).find()) {
      assertTrue(System.nanoTime() < deadline && !run.isDone(), "map stage never finished");
      Thread.sleep(100);
    }
    String am = amHost();
    String victim = hosts.stream().map(HostLink::name).filter(h -> !h.equals(am)).findFirst().get();
    yarn.killNodeManager(victim);

    assertEquals(0, run.get(5, TimeUnit.MINUTES), "the job finished anyway; see " + log);
    JsonNode job = json.readTree(result.toFile()).get("jobs").get(0);
    assertTrue(job.get("valid").asBoolean(), "output complete and sorted: " + job);
  }

  @Test
  void withDynamicAllocationYarnIsAskedForExecutorsOnTheHostsTheCoordinatorChose()
      throws Exception {
    // One executor of three cores runs the map stages (three tasks each) without a backlog, so
    // Spark asks YARN for nothing before the reduce stage and the other hosts stay empty. Spark
    // asks
    // only once tasks have waited spark.dynamicAllocation.schedulerBacklogTimeout (at least 1 s),
    // for as many executors as pending and running tasks fill: nine reducers over three hosts of
    // three cores leave six waiting for executors to come, which need two more executors however
    // soon the three on the map's executor end (with one core each and three reducers, one placed
    // task waiting was not enough once the others had ended, and longer map stages had Spark ask
    // for executors before the reduce stage, filling YARN).
    Path in = work.resolve("in-one");
    Path genOne = work.resolve("gen-one.json");
    Files.deleteIfExists(genOne);
    assertEquals(
        0,
        submit(false)
            .run(
                List.of("gen", in.toString(), "300000", "1", genOne.toString()),
                work.resolve("gen-one.log")),
        "TeraGen on YARN; see " + work.resolve("gen-one.log"));
    Path result = work.resolve("dynamic.json");
    Files.deleteIfExists(result);
    Path log = work.resolve("dynamic.log");
    Map<String, String> dynamic =
        Map.of(
            "spark.dynamicAllocation.enabled", "true",
            "spark.dynamicAllocation.initialExecutors", "1",
            "spark.dynamicAllocation.minExecutors", "1",
            "spark.dynamicAllocation.maxExecutors", Integer.toString(hosts.size()),
            "spark.executor.instances", "1",
            "spark.executor.cores", "3",
            // Tasks here last a second: wait for the executors YARN starts (docs/yarn.md).
            "spark.locality.wait", "10s");
    assertEquals(
        0,
        submit(true, dynamic).run(sortArgs("dynamic", in, genOne, result, 9), log),
        "see " + log);
    JsonNode job = json.readTree(result.toFile()).get("jobs").get(0);
    assertTrue(job.get("valid").asBoolean(), job.toString());

    Matcher placed =
        Pattern.compile("placed by rpc on executors \\[([^]]*)]").matcher(Files.readString(log));
    assertTrue(placed.find(), "the driver log names the placement; see " + log);
    List<String> toCome = new ArrayList<>();
    for (String e : placed.group(1).split(", ")) {
      if (e.startsWith("new@")) {
        toCome.add(e.substring("new@".length()));
      }
    }
    assertTrue(
        !toCome.isEmpty(), "some reducers go to hosts without an executor: " + placed.group(1));
    // The application master's log (its first container): what Spark asked YARN for.
    Matcher app =
        Pattern.compile("Submitted application (application_\\d+_\\d+)")
            .matcher(Files.readString(log));
    assertTrue(app.find(), "the driver log names the application; see " + log);
    String am =
        containerLogs().stream()
            .filter(f -> f.getParent().getParent().getFileName().toString().equals(app.group(1)))
            .filter(f -> f.getParent().getFileName().toString().endsWith("_000001"))
            .map(TestbedYarnIT::read)
            .findFirst()
            .orElse("");
    // Each request names the nodes Spark's placement strategy chose for it, comma-separated.
    Set<String> asked = new TreeSet<>();
    Matcher request =
        Pattern.compile("Submitted container request for host ([^ ]+)\\.").matcher(am);
    while (request.find()) {
      asked.addAll(List.of(request.group(1).split(",")));
    }
    // Earlier stages that outlast the backlog timeout get executors too, from requests naming no
    // host; Spark counts a container already started on a host toward the tasks that prefer it,
    // so a reducer placed on a host where one started needs no request of its own.
    Set<String> started = new TreeSet<>();
    Matcher launch = Pattern.compile("Launching container \\S+ on host (\\S+) ").matcher(am);
    while (launch.find()) {
      started.add(launch.group(1));
    }
    Set<String> coming = new TreeSet<>(asked);
    coming.addAll(started);
    assertTrue(
        coming.containsAll(toCome),
        "the coordinator put reducers on "
            + toCome
            + ", where no container was asked for ("
            + asked
            + ") or started ("
            + started
            + ")");
    System.out.printf(
        "dynamic allocation: reducers placed on executors [%s]; containers asked for on %s,"
            + " started on %s; %d of %d reduce tasks ran where placed%n",
        placed.group(1),
        asked,
        started,
        job.get("placedTasksMatched").asInt(),
        job.get("reduceTasks").asInt());
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      return ""; // deleted since the walk
    }
  }

  /** The host running the application master, from the ResourceManager. */
  private String amHost() throws IOException, InterruptedException {
    JsonNode apps = yarn.rest("/ws/v1/cluster/apps?states=RUNNING").path("apps").path("app");
    assertEquals(1, apps.size(), apps.toString());
    return apps.get(0).get("amHostHttpAddress").asText().split(":")[0];
  }
}
