/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real YARN on the testbed: a ResourceManager in the machine's own namespace (on the bridge's
 * address, beside the driver) and one NodeManager in each host's namespace, started from the Hadoop
 * jars Maven resolved, with configuration written here. Containers run inside their NodeManager's
 * namespace, so executors send and receive over that host's shaped link.
 */
public final class TestbedYarn implements AutoCloseable {

  /** The ResourceManager's web port, where {@link #start} asks how many nodes run. */
  static final int RM_WEB_PORT = 8088;

  /** Memory a Spark executor container takes beyond its heap: Spark's minimum overhead. */
  static final int EXECUTOR_OVERHEAD_MB = 384;

  /** The application master's container in client mode: 512 MB heap and the same overhead. */
  static final int AM_MB = 512 + EXECUTOR_OVERHEAD_MB;

  /** Cores each NodeManager offers, and the most one executor may ask for. */
  public static final int VCORES = 8;

  /** The coflow NodeManager service: its name, its class (in the service JAR), its paced port. */
  public static final String SERVICE_NAME = "coflow_shuffle";

  static final String SERVICE_CLASS = "org.coflowshuffle.yarn.CoflowShuffleService";
  public static final int SERVICE_PACED_PORT = 7338;

  /**
   * The Hadoop daemons' class path, as the build of {@code integration-tests/yarn-daemons} wrote it
   * under the project's {@code root}.
   *
   * @throws IOException naming the file when the build has not written it
   */
  public static String hadoopClassPath(Path root) throws IOException {
    Path file = root.resolve("integration-tests/yarn-daemons/target/hadoop-classpath.txt");
    if (!Files.exists(file)) {
      throw new IOException("no " + file + "; build with mvn package");
    }
    return Files.readString(file).trim();
  }

  /** The coflow service loaded from {@code serviceJar} through its own class loader. */
  public static Map<String, AuxService> coflowService(Path serviceJar) {
    return coflowService(serviceJar, Map.of());
  }

  /**
   * The coflow service, secured as the applications' {@code sparkConf} asks: its security keys
   * ({@code spark.authenticate*}, {@code spark.network.crypto.*}) and the push-based shuffle
   * server's ({@code spark.shuffle.push.server.*}) go into yarn-site.xml, where an operator puts
   * them for Spark's own YARN shuffle service.
   */
  public static Map<String, AuxService> coflowService(
      Path serviceJar, Map<String, String> sparkConf) {
    Map<String, String> security = new LinkedHashMap<>();
    sparkConf.forEach(
        (k, v) -> {
          if (k.startsWith("spark.authenticate") && !k.equals("spark.authenticate.secret")
              || k.startsWith("spark.network.crypto.")
              || k.startsWith("spark.shuffle.push.server.")) {
            security.put(k, v);
          }
        });
    return Map.of(SERVICE_NAME, new AuxService(SERVICE_CLASS, serviceJar.toString(), security));
  }

  /**
   * Settings an application needs to keep its shuffle files with the coflow service (and, with the
   * plugin, fetch them paced from it).
   */
  public static Map<String, String> serviceConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.shuffle.service.enabled", "true");
    conf.put("spark.shuffle.service.name", SERVICE_NAME);
    conf.put("spark.coflow.shuffleService.port", Integer.toString(SERVICE_PACED_PORT));
    return conf;
  }

  /** What Hadoop 3.4 needs opened to run on Java 17. */
  private static final List<String> OPENS =
      List.of(
          "java.base/java.lang",
          "java.base/java.lang.reflect",
          "java.base/java.io",
          "java.base/java.net",
          "java.base/java.nio",
          "java.base/java.util",
          "java.base/java.util.concurrent",
          "java.base/sun.nio.ch");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<Process> processes = new ArrayList<>();
  private final Map<String, Process> nodeManagers = new LinkedHashMap<>();

  /** How a daemon was started, to start it again. */
  private record Launch(
      Path conf, String classPath, String mainClass, List<String> prefix, Path log) {}

  private final Map<String, Launch> launches = new LinkedHashMap<>();
  private final String gateway;
  private final Path confDir;

  private TestbedYarn(String gateway, Path confDir) {
    this.gateway = gateway;
    this.confDir = confDir;
  }

  /**
   * What each NodeManager offers and runs.
   *
   * @param executorMemoryMb heap of one Spark executor; each node fits exactly {@code
   *     executorsPerHost} executors and the application master, so YARN spreads the executors
   *     evenly over the hosts
   * @param auxServices NodeManager auxiliary services by name: their class and the class path they
   *     load from (an isolated class loader)
   * @param recovery NodeManager recovery on ({@code yarn.nodemanager.recovery.enabled},
   *     supervised): a NodeManager killed and started again finds its containers and its services'
   *     state, and the ResourceManager waits a minute for it, not 15 s
   * @param executorsPerHost executors each node runs, at least 1
   */
  public record Nodes(
      int executorMemoryMb,
      Map<String, AuxService> auxServices,
      boolean recovery,
      int executorsPerHost) {

    public Nodes {
      if (executorsPerHost < 1) {
        throw new IllegalArgumentException("executors per host: " + executorsPerHost);
      }
    }

    /** Nodes of one executor each. */
    public Nodes(int executorMemoryMb, Map<String, AuxService> auxServices, boolean recovery) {
      this(executorMemoryMb, auxServices, recovery, 1);
    }

    /** Nodes of one executor each, without NodeManager recovery. */
    public Nodes(int executorMemoryMb, Map<String, AuxService> auxServices) {
      this(executorMemoryMb, auxServices, false);
    }

    int memoryMb() {
      return executorsPerHost * (executorMemoryMb + EXECUTOR_OVERHEAD_MB) + AM_MB;
    }
  }

  /** An auxiliary service of the NodeManagers. */
  public record AuxService(String className, String classPath, Map<String, String> conf) {}

  /**
   * Writes the configuration, starts the daemons and waits until every NodeManager runs.
   *
   * @param hadoopClassPath the daemons' class path
   * @param dir configuration, logs and the NodeManagers' local directories go here
   * @throws IOException when a daemon does not come up within two minutes (the logs are named)
   */
  public static TestbedYarn start(
      String hadoopClassPath, String gateway, List<HostLink> hosts, Nodes nodes, Path dir)
      throws IOException, InterruptedException {
    Path conf = dir.resolve("conf");
    TestbedYarn y = new TestbedYarn(gateway, conf);
    try {
      Map<String, String> common = commonSite(gateway, nodes);
      writeConf(conf, common, Map.of("fs.defaultFS", "file:///"));
      y.launch(
          new Launch(
              conf,
              hadoopClassPath,
              "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
              List.of(),
              dir.resolve("resourcemanager.log")),
          false);
      for (HostLink h : hosts) {
        Path node = dir.resolve(h.name());
        Map<String, String> site = new LinkedHashMap<>(common);
        site.putAll(nodeSite(h, node));
        writeConf(node.resolve("conf"), site, Map.of("fs.defaultFS", "file:///"));
        Launch nm =
            new Launch(
                node.resolve("conf"),
                hadoopClassPath,
                "org.apache.hadoop.yarn.server.nodemanager.NodeManager",
                List.of("ip", "netns", "exec", h.namespace()),
                dir.resolve("nodemanager-" + h.name() + ".log"));
        y.launches.put(h.name(), nm);
        y.nodeManagers.put(h.name(), y.launch(nm, false));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      int running;
      while ((running = y.runningNodes()) < hosts.size()) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              running + " of " + hosts.size() + " NodeManagers running after 120 s; see " + dir);
        }
        for (Process p : y.processes) {
          if (!p.isAlive()) {
            throw new IOException("a YARN daemon exited with " + p.exitValue() + "; see " + dir);
          }
        }
        Thread.sleep(500);
      }
      return y;
    } catch (IOException | InterruptedException | RuntimeException e) {
      y.close();
      throw e;
    }
  }

  /** Settings every daemon and client shares: where the ResourceManager is, how nodes are sized. */
  static Map<String, String> commonSite(String gateway, Nodes nodes) {
    Map<String, String> site = new LinkedHashMap<>();
    site.put("yarn.resourcemanager.hostname", gateway);
    site.put("yarn.resourcemanager.webapp.address", gateway + ":" + RM_WEB_PORT);
    site.put("yarn.nodemanager.resource.memory-mb", Integer.toString(nodes.memoryMb()));
    site.put("yarn.nodemanager.resource.cpu-vcores", Integer.toString(VCORES));
    // YARN's own cap is 4 per container, which would refuse an executor of 5 to 8 cores.
    site.put("yarn.scheduler.maximum-allocation-vcores", Integer.toString(VCORES));
    site.put("yarn.scheduler.minimum-allocation-mb", "128");
    site.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(nodes.memoryMb()));
    // Containers share the machine's memory with everything else here; YARN's own checks would
    // kill executors for what other processes use.
    site.put("yarn.nodemanager.vmem-check-enabled", "false");
    site.put("yarn.nodemanager.pmem-check-enabled", "false");
    site.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99");
    site.put("yarn.log-aggregation-enable", "false");
    // Containers' JVMs take the options the daemons were started with (YARN's default list, then
    // JAVA_TOOL_OPTIONS), as processes started on this machine would.
    site.put(
        "yarn.nodemanager.env-whitelist",
        "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,"
            + "HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ,JAVA_TOOL_OPTIONS");
    // A killed NodeManager is noticed in seconds, not YARN's ten minutes; one that recovers is
    // given a minute to come back.
    site.put("yarn.nm.liveness-monitor.expiry-interval-ms", nodes.recovery() ? "60000" : "15000");
    if (nodes.recovery()) {
      site.put("yarn.nodemanager.recovery.enabled", "true");
      site.put("yarn.nodemanager.recovery.supervised", "true");
    }
    site.put("yarn.resourcemanager.nm.liveness-monitor.interval-ms", "1000");
    if (!nodes.auxServices().isEmpty()) {
      site.put("yarn.nodemanager.aux-services", String.join(",", nodes.auxServices().keySet()));
      nodes
          .auxServices()
          .forEach(
              (name, aux) -> {
                String key = "yarn.nodemanager.aux-services." + name;
                site.put(key + ".class", aux.className());
                site.put(key + ".classpath", aux.classPath());
                site.putAll(aux.conf());
              });
    }
    return site;
  }

  /** One NodeManager's own settings: its address and name, its directories. */
  static Map<String, String> nodeSite(HostLink h, Path dir) {
    Map<String, String> site = new LinkedHashMap<>();
    site.put("yarn.nodemanager.hostname", h.address());
    site.put("yarn.nodemanager.address", h.address() + ":45454");
    site.put("yarn.nodemanager.local-dirs", dir.resolve("local").toString());
    site.put("yarn.nodemanager.log-dirs", dir.resolve("logs").toString());
    site.put("yarn.nodemanager.recovery.dir", dir.resolve("recovery").toString());
    return site;
  }

  private static void writeConf(Path conf, Map<String, String> yarn, Map<String, String> core)
      throws IOException {
    Files.createDirectories(conf);
    Files.writeString(conf.resolve("yarn-site.xml"), siteXml(yarn));
    Files.writeString(conf.resolve("core-site.xml"), siteXml(core));
    Files.writeString(
        conf.resolve("capacity-scheduler.xml"),
        siteXml(
            Map.of(
                "yarn.scheduler.capacity.root.queues", "default",
                "yarn.scheduler.capacity.root.default.capacity", "100",
                "yarn.scheduler.capacity.root.default.maximum-capacity", "100",
                "yarn.scheduler.capacity.maximum-am-resource-percent", "0.5")));
    Files.writeString(
        conf.resolve("log4j.properties"),
        """
        log4j.rootLogger=INFO,console
        log4j.appender.console=org.apache.log4j.ConsoleAppender
        log4j.appender.console.layout=org.apache.log4j.PatternLayout
        log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss.SSS} %p %c{1}: %m%n
        """);
  }

  /** A Hadoop configuration file with these properties. */
  static String siteXml(Map<String, String> properties) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    properties.forEach(
        (k, v) ->
            xml.append("  <property><name>")
                .append(escape(k))
                .append("</name><value>")
                .append(escape(v))
                .append("</value></property>\n"));
    return xml.append("</configuration>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Starts a daemon, its output in its log: a new one, or appended ({@code append}). */
  private Process launch(Launch d, boolean append) throws IOException {
    List<String> cmd = new ArrayList<>(d.prefix());
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-Xmx512m");
    for (String o : OPENS) {
      cmd.add("--add-opens=" + o + "=ALL-UNNAMED");
    }
    cmd.addAll(
        List.of("-cp", d.conf() + java.io.File.pathSeparator + d.classPath(), d.mainClass()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(
        append
            ? ProcessBuilder.Redirect.appendTo(d.log().toFile())
            : ProcessBuilder.Redirect.to(d.log().toFile()));
    pb.environment().put("HADOOP_CONF_DIR", d.conf().toString());
    Process p = pb.start();
    processes.add(p);
    return p;
  }

  private int runningNodes() throws InterruptedException {
    try {
      return rest("/ws/v1/cluster/nodes?states=RUNNING").path("nodes").path("node").size();
    } catch (IOException e) {
      return 0; // not listening yet
    }
  }

  /**
   * What the ResourceManager's REST API answers for {@code path}, e.g. {@code
   * /ws/v1/cluster/apps?states=RUNNING}.
   *
   * @throws IOException when it does not answer (not up yet, or gone)
   */
  public JsonNode rest(String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://" + gateway + ":" + RM_WEB_PORT + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  /** {@code HADOOP_CONF_DIR} for clients such as {@code spark-submit}. */
  public Path confDir() {
    return confDir;
  }

  /**
   * Settings a Spark job needs on this YARN: the driver on the bridge, Spark's jars taken from the
   * distribution in place (every host shares this machine's disk), {@code executors} executors in
   * all (spread evenly: see {@link Nodes}), and the jobs held back until every executor registered.
   */
  public Map<String, String> sparkConf(Path sparkHome, int executors, int cores, int memoryMb) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.driver.host", gateway);
    conf.put("spark.driver.bindAddress", gateway);
    conf.put("spark.yarn.jars", "local:" + sparkHome.resolve("jars") + "/*");
    conf.put("spark.yarn.am.memory", (AM_MB - EXECUTOR_OVERHEAD_MB) + "m");
    conf.put("spark.executor.instances", Integer.toString(executors));
    conf.put("spark.executor.cores", Integer.toString(cores));
    conf.put("spark.executor.memory", memoryMb + "m");
    conf.put("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    conf.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s");
    return conf;
  }

  /**
   * Kills a host's NodeManager and everything it runs (its containers, its auxiliary services) at
   * once, as when the host fails.
   */
  public void killNodeManager(String host) {
    Process p = nodeManagers.get(host);
    if (p == null) {
      throw new IllegalArgumentException("no NodeManager on " + host);
    }
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  /**
   * Kills a host's NodeManager alone ({@code SIGKILL}), as when its process dies: its containers
   * run on, and with recovery on its next start finds them ({@link #startNodeManager}).
   */
  public void killNodeManagerOnly(String host) throws InterruptedException {
    Process p = nodeManagers.get(host);
    if (p == null) {
      throw new IllegalArgumentException("no NodeManager on " + host);
    }
    p.destroyForcibly();
    p.waitFor();
  }

  /** Starts a host's NodeManager again as it was started first, its log going on in one file. */
  public void startNodeManager(String host) throws IOException {
    Launch nm = launches.get(host);
    if (nm == null) {
      throw new IllegalArgumentException("no NodeManager on " + host);
    }
    nodeManagers.put(host, launch(nm, true));
  }

  /**
   * Kills ({@code SIGKILL}) the Spark executors a host's NodeManager runs, as when an executor's
   * JVM dies.
   *
   * @return how many it killed
   */
  public int killExecutors(String host) {
    Process p = nodeManagers.get(host);
    if (p == null) {
      throw new IllegalArgumentException("no NodeManager on " + host);
    }
    List<ProcessHandle> executors =
        p.descendants()
            .filter(
                d ->
                    d.info()
                        .commandLine()
                        .orElse("")
                        .contains("org.apache.spark.executor.YarnCoarseGrainedExecutorBackend"))
            .toList();
    executors.forEach(ProcessHandle::destroyForcibly);
    return executors.size();
  }

  /** The host the application's master runs on, by the ResourceManager; null if not known. */
  public String amHost(String appId) throws IOException, InterruptedException {
    String at = rest("/ws/v1/cluster/apps/" + appId).path("app").path("amHostHttpAddress").asText();
    return at.isEmpty() ? null : at.substring(0, at.lastIndexOf(':'));
  }

  /** Stops every daemon, and the containers under the NodeManagers with them. */
  @Override
  public void close() {
    Daemons.stop(processes, 15);
  }
}
