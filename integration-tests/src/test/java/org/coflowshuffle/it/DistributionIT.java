/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.coflowshuffle.cli.spark.SparkDistribution;
import org.coflowshuffle.cli.spark.SparkSubmit;
import org.coflowshuffle.cli.spark.TerasortCommand;
import org.coflowshuffle.cli.spark.app.TerasortApp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary distribution as a user installs it: the tarball the build made, unpacked into an empty
 * directory, used with a Java runtime and nothing of the source tree. Its command line solves the
 * paper's Fig. 1 and runs the standalone coordinator, and a Spark job of the PyPI distribution runs
 * with the plugin JAR from the tarball against that coordinator.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributionIT {

  private static final String VERSION = System.getProperty("coflow.version", "0.1.0-SNAPSHOT");

  /** Third-party packages that keep their names in the shaded JARs, with the reason in the pom. */
  /**
   * Packages whose native code is bound to their names (JNI): relocated, they would not load.
   * Commons-crypto's OpenSSL binding, and the databases of the NodeManager service's recovery.
   */
  private static final List<String> UNRELOCATED =
      List.of(
          "org/apache/commons/crypto/",
          "org/rocksdb/",
          "org/fusesource/leveldbjni/",
          "org/fusesource/hawtjni/",
          "org/iq80/leveldb/");

  private final ObjectMapper json = new ObjectMapper();
  private Path root;
  private Path home;
  private Path fakeBin;

  @TempDir Path dir;

  @BeforeAll
  void unpack(@TempDir Path unpacked) throws Exception {
    root = Path.of(System.getProperty("coflow.home", "..")).toAbsolutePath().normalize();
    Path tarball = root.resolve("distribution/target/coflow-shuffle-" + VERSION + "-bin.tar.gz");
    assertTrue(Files.isRegularFile(tarball), "the package phase built " + tarball);
    Process tar =
        new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", unpacked.toString())
            .inheritIO()
            .start();
    assertEquals(0, tar.waitFor());
    home = unpacked.resolve("coflow-shuffle-" + VERSION);
    // A "mvn" first on the PATH that leaves a mark: the distribution must never build.
    fakeBin = Files.createDirectories(unpacked.resolve("fake-bin"));
    Path mvn = fakeBin.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\ntouch \"$(dirname \"$0\")/mvn-was-called\"\nexit 99\n");
    assertTrue(mvn.toFile().setExecutable(true));
  }

  @Test
  void holdsWhatTheDocsSay() throws IOException {
    for (String path :
        List.of(
            "LICENSE",
            "NOTICE",
            "README.md",
            "docs/deploy.md",
            "docs/coflow-instance.md",
            "examples/fig1.json",
            "conf/spark-defaults.conf.template",
            "conf/yarn-site.xml.template",
            "conf/coordinator.properties.template",
            "jars/coflow-shuffle-spark_2.13-" + VERSION + ".jar",
            "jars/coflow-shuffle-yarn_2.13-" + VERSION + ".jar")) {
      assertTrue(Files.isRegularFile(home.resolve(path)), path);
    }
    assertTrue(Files.isExecutable(home.resolve("bin/coflow")));
    assertTrue(Files.readString(home.resolve("LICENSE")).contains("Apache License"));
  }

  @Test
  void shadedJarsHoldNoThirdPartyClassUnderItsOwnName() throws IOException {
    for (String name : List.of("spark", "yarn")) {
      Path jar = home.resolve("jars/coflow-shuffle-" + name + "_2.13-" + VERSION + ".jar");
      List<String> stray = new ArrayList<>();
      int shaded = 0;
      try (JarFile f = new JarFile(jar.toFile())) {
        for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
          String entry = e.nextElement().getName();
          if (!entry.endsWith(".class")) {
            continue;
          }
          if (entry.startsWith("org/coflowshuffle/shaded/")) {
            shaded++;
          } else if (!entry.startsWith("org/coflowshuffle/")
              && UNRELOCATED.stream().noneMatch(entry::startsWith)) {
            stray.add(entry);
          }
        }
      }
      assertTrue(shaded > 0, name + ": its third-party classes are relocated, not missing");
      assertEquals(List.of(), stray.stream().limit(5).toList(), name + ": unrelocated classes");
    }
  }

  @Test
  void thePluginJarHoldsOnlyWhatRunsInSpark() throws IOException {
    Path jar = home.resolve("jars/coflow-shuffle-spark_2.13-" + VERSION + ".jar");
    List<String> packages = new ArrayList<>();
    try (JarFile f = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
        String entry = e.nextElement().getName();
        if (entry.endsWith(".class") && entry.startsWith("org/coflowshuffle/")) {
          packages.add(entry.substring(0, entry.lastIndexOf('/')));
        }
      }
    }
    assertTrue(packages.contains("org/coflowshuffle/spark/driver"), "the plugin itself is there");
    assertTrue(packages.contains("org/coflowshuffle/coordinator/live"), "and its coordinator");
    for (String notInSpark :
        List.of(
            "org/coflowshuffle/cli",
            "org/coflowshuffle/coordinator/server",
            "org/coflowshuffle/simulator")) {
      assertFalse(
          packages.stream().anyMatch(p -> p.startsWith(notInSpark)),
          notInSpark + " has no business in Spark");
    }
  }

  @Test
  void noticeNamesEveryLibraryOfTheCommandLine() throws IOException {
    String notice = Files.readString(home.resolve("NOTICE")).toLowerCase(Locale.ROOT);
    try (Stream<Path> libs = Files.list(home.resolve("lib"))) {
      for (Path lib : libs.toList()) {
        String family = lib.getFileName().toString().split("-")[0].toLowerCase(Locale.ROOT);
        if (!family.equals("coflow")) {
          assertTrue(notice.contains(family), "NOTICE names " + lib.getFileName());
        }
      }
    }
  }

  @Test
  void solvesFig1WithOnlyAJavaRuntime() throws Exception {
    Run run = coflow(List.of("solve", home.resolve("examples/fig1.json").toString()));
    assertEquals(0, run.status(), run.err());
    assertEquals(2.25, json.readTree(run.out()).get("averageCct").asDouble(), 1e-9);
    assertFalse(Files.exists(fakeBin.resolve("mvn-was-called")), "bin/coflow called Maven");
  }

  @Test
  void theCoordinatorFromTheTarballPlacesASparkJobWithTheTarballsPlugin() throws Exception {
    Process coordinator =
        process(
                List.of(
                    "coordinator",
                    "--conf",
                    home.resolve("conf/coordinator.properties.template").toString(),
                    "--port",
                    "0",
                    "--http-port",
                    "0"))
            .redirectError(dir.resolve("coordinator.log").toFile())
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(coordinator.getInputStream(), StandardCharsets.UTF_8))) {
      String banner = out.readLine();
      Matcher m =
          Pattern.compile("protocol on ([^ ,]+), status on http://([^/]+)/").matcher("" + banner);
      assertTrue(m.find(), "the coordinator says where it listens: " + banner);
      String protocol = m.group(1);
      URI http = URI.create("http://" + m.group(2));
      HttpResponse<String> status = get(http.resolve("/status"));
      assertEquals(200, status.statusCode());
      assertEquals(0, json.readTree(status.body()).get("applications").size());

      JsonNode sorted = terasortWithThePlugin(protocol);
      assertTrue(sorted.get("valid").asBoolean(), "TeraValidate of the plugin run: " + sorted);
      int tasks = 0;
      int matched = 0;
      for (JsonNode job : sorted.get("jobs")) {
        tasks += job.get("reduceTasks").asInt();
        matched += job.get("placedTasksMatched").asInt();
      }
      assertTrue(tasks > 0 && matched >= 0.95 * tasks, "placed " + matched + " of " + tasks);
      String metrics = get(http.resolve("/metrics")).body();
      assertTrue(
          counter(metrics, "coflow_frames_received_total{type=\"PLACEMENT_REQUEST\"}") > 0,
          metrics);
      assertTrue(counter(metrics, "coflow_flow_rates_pushed_total") > 0, metrics);
    } finally {
      coordinator.destroy();
      assertTrue(coordinator.waitFor(30, TimeUnit.SECONDS), "the coordinator stops on SIGTERM");
    }
  }

  /** TeraGen with stock Spark, then one TeraSort with the tarball's plugin JAR; its result. */
  private JsonNode terasortWithThePlugin(String coordinator) throws Exception {
    Path spark = SparkDistribution.home(root, System.err);
    Path app = TerasortCommand.Jars.find(root).app();
    Path plugin = home.resolve("jars/coflow-shuffle-spark_2.13-" + VERSION + ".jar");
    String master = "local-cluster[2,1,1024]";
    Path gen = dir.resolve("gen.json");
    int generated =
        new SparkSubmit(
                spark, master, TerasortApp.class.getName(), app, List.of(), Map.of(), Map.of())
            .run(
                List.of("gen", dir + "/in", "200000", "4", gen.toString()), dir.resolve("gen.log"));
    assertEquals(0, generated, "TeraGen; see " + dir.resolve("gen.log"));
    Path result = dir.resolve("sort.json");
    Map<String, String> conf =
        Map.of(
            "spark.ui.enabled", "false",
            "spark.shuffle.readHostLocalDisk", "false",
            "spark.shuffle.manager", "org.coflowshuffle.spark.CoflowShuffleManager",
            "spark.plugins", "org.coflowshuffle.spark.CoflowPlugin",
            "spark.coflow.coordinator", coordinator);
    Path log = dir.resolve("sort.log");
    int sorted =
        new SparkSubmit(
                spark, master, TerasortApp.class.getName(), app, List.of(plugin), conf, Map.of())
            .run(
                List.of(
                    "sort",
                    dir + "/in",
                    dir + "/out",
                    "1",
                    "4",
                    gen.toString(),
                    result.toString(),
                    "plugin"),
                log);
    assertEquals(0, sorted, "TeraSort with the plugin; see " + log);
    return json.readTree(result.toFile());
  }

  private static double counter(String metrics, String name) {
    return metrics
        .lines()
        .filter(l -> l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1).trim()))
        .findFirst()
        .orElse(0);
  }

  private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private record Run(int status, String out, String err) {}

  /** {@code bin/coflow ARGS} from an empty working directory, to its end. */
  private Run coflow(List<String> args) throws Exception {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p = process(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/coflow " + args + " ended");
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private ProcessBuilder process(List<String> args) throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/coflow").toString()));
    command.addAll(args);
    Path cwd = Files.createDirectories(dir.resolve("cwd"));
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
    Path java = Path.of(System.getProperty("java.home"), "bin");
    pb.environment().put("PATH", fakeBin + ":" + java + ":/usr/bin:/bin");
    pb.environment().put("COFLOW_JAVA_OPTS", "-Xmx512m");
    return pb;
  }
}
