/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.coflowshuffle.it.DifferentialRuns.plugin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.cli.spark.SparkSubmit;
import org.coflowshuffle.cli.spark.app.DifferentialApp;
import org.coflowshuffle.cli.testbed.HostLink;
import org.coflowshuffle.cli.testbed.Testbed;
import org.coflowshuffle.cli.testbed.TestbedProfile;
import org.coflowshuffle.cli.testbed.TestbedSpark;
import org.coflowshuffle.cli.testbed.TestbedYarn;
import org.coflowshuffle.ratelimit.AppSecrets;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.ratelimit.Pacer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The NodeManager service on real YARN with {@code spark.authenticate} and network crypto in
 * yarn-site.xml: while a job with the plugin holds its shuffle files there, clients with no secret,
 * a wrong secret, and another running application's valid secret ask every NodeManager's Spark port
 * (7337) and paced port (7338) for its blocks; each gets a clear error and no byte, and the job's
 * results equal stock Spark's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecuredYarnIT {

  private static final int EXECUTOR_MB = 640;
  private static final int SPARK_PORT = 7337;
  private static final String OTHER_SECRET = "secret-of-the-other-application";
  private static final Map<String, String> SECURITY =
      Map.of("spark.authenticate", "true", "spark.network.crypto.enabled", "true");
  private static final TransportConf TRANSPORT =
      new TransportConf("shuffle", new MapConfigProvider(SECURITY));

  private final Testbed testbed = new Testbed("cfs", "10.80.0");
  private DifferentialRuns runs;
  private List<HostLink> hosts;
  private TestbedYarn yarn;
  private YarnClient client;
  private Path work;

  @BeforeAll
  void startSecuredYarn() throws Exception {
    runs = DifferentialRuns.get();
    work = Files.createDirectories(runs.work.resolve("secured-yarn"));
    String hadoop = TestbedYarn.hadoopClassPath(runs.root);
    testbed.down();
    hosts = testbed.hosts(TestbedProfile.rates("homogeneous", 3, 100));
    testbed.up(hosts);
    yarn =
        TestbedYarn.start(
            hadoop,
            testbed.gateway(),
            hosts,
            new TestbedYarn.Nodes(
                EXECUTOR_MB, TestbedYarn.coflowService(runs.jars.service(), SECURITY)),
            work.resolve("daemons"));
    YarnConfiguration conf = new YarnConfiguration();
    conf.addResource(
        new org.apache.hadoop.fs.Path(yarn.confDir().resolve("yarn-site.xml").toString()));
    client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (yarn != null) {
      yarn.close();
    }
    testbed.down();
  }

  /**
   * Another application, its secret known to the test: a container that sleeps, whose launch
   * context hands the coflow service its secret as Spark's does.
   */
  private ApplicationId otherApplication() throws Exception {
    ApplicationSubmissionContext app = client.createApplication().getApplicationSubmissionContext();
    app.setApplicationName("another application");
    app.setQueue("default");
    app.setResource(Resource.newInstance(128, 1));
    app.setAMContainerSpec(
        ContainerLaunchContext.newInstance(
            Map.of(),
            Map.of(),
            List.of("sleep 600"),
            Map.of(
                TestbedYarn.SERVICE_NAME,
                ByteBuffer.wrap(OTHER_SECRET.getBytes(StandardCharsets.UTF_8))),
            null,
            null));
    return client.submitApplication(app);
  }

  @Test
  void noClientWithoutTheApplicationsSecretGetsAByteFromEitherPort() throws Exception {
    ApplicationId other = otherApplication();
    Path hold = work.resolve("hold");
    DifferentialRuns.clearHold(hold);
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.putAll(yarn.sparkConf(runs.spark, 2, 1, EXECUTOR_MB));
    conf.putAll(TestbedYarn.serviceConf());
    conf.putAll(TestbedSpark.linkConf(hosts));
    conf.putAll(SECURITY);
    conf.put("spark.shuffle.readHostLocalDisk", "false");
    Path result = work.resolve("result.json");
    Files.deleteIfExists(result);
    Path log = work.resolve("job.log");
    SparkSubmit submit =
        new SparkSubmit(
            runs.spark,
            "yarn",
            DifferentialApp.class.getName(),
            runs.jars.app(),
            List.of(runs.jars.plugin()),
            plugin(conf),
            Map.of("HADOOP_CONF_DIR", yarn.confDir().toString()));
    CompletableFuture<Integer> job =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return submit.run(List.of(result.toString(), hold.toString()), log);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String app = DifferentialRuns.awaitHold(hold, job, log);

    List<String> errors = new ArrayList<>();
    boolean otherRefusedOnItsOwnNode = false;
    for (HostLink h : hosts) {
      String host = h.address();
      errors.add(openBlock(host, app, app, null));
      errors.add(openBlock(host, app, app, "not-the-secret"));
      String sparkPort = openBlock(host, other.toString(), app, OTHER_SECRET);
      errors.add(sparkPort);
      errors.add(fetchPaced(host, app, app, null));
      errors.add(fetchPaced(host, app, app, "not-the-secret"));
      String paced = fetchPaced(host, other.toString(), app, OTHER_SECRET);
      errors.add(paced);
      // Where the other application runs, the service knows its secret: it authenticates, and is
      // refused the job's blocks all the same.
      otherRefusedOnItsOwnNode |=
          sparkPort.contains("not authorized for application " + app)
              && paced.endsWith("application " + other + " may not fetch blocks of " + app);
    }
    client.killApplication(other);
    DifferentialRuns.releaseHold(hold);
    assertEquals(0, job.get(5, TimeUnit.MINUTES), "the job; see " + log);

    for (String e : errors) {
      assertTrue(e != null && !e.isBlank(), "a clear error each: " + errors);
    }
    assertTrue(otherRefusedOnItsOwnNode, "another application's secret was tried: " + errors);
    JsonNode run = new ObjectMapper().readTree(result.toFile());
    runs.assertSameResults(run, "secured YARN job");
    assertEquals(
        run.get("results").get("rdd reduceByKey").asText(),
        run.get("results").get("rdd reduceByKey again").asText(),
        "after the attacks the job read its shuffle again, with the same result");
    assertTrue(
        Files.readAllLines(log).stream()
            .anyMatch(
                l -> l.matches(".*coflow: [1-9]\\d* bytes of shuffle blocks fetched paced.*")),
        "blocks came paced from the NodeManagers' service; see " + log);
  }

  /**
   * Asks port 7337 for a block of {@code app}'s executor 1 over a connection authenticated as
   * {@code as} with {@code secret} (null: not authenticated); returns the error.
   */
  private static String openBlock(String host, String as, String app, String secret)
      throws Exception {
    try (TransportContext context = new TransportContext(TRANSPORT, new NoOpRpcHandler());
        TransportClientFactory factory =
            context.createClientFactory(
                secret == null
                    ? List.of()
                    : List.of(new AuthClientBootstrap(TRANSPORT, as, AppSecrets.of(secret))))) {
      TransportClient c = factory.createClient(host, SPARK_PORT);
      ByteBuffer answer =
          c.sendRpcSync(
              new OpenBlocks(app, "1", new String[] {"shuffle_0_0_0"}).toByteBuffer(), 10_000);
      throw new AssertionError(as + " opened a block of " + app + ": " + answer);
    } catch (AssertionError e) {
      throw e;
    } catch (Exception e) {
      return String.valueOf(e.getMessage());
    }
  }

  /**
   * Fetches a block of {@code app}'s executor 1 from the paced port as {@code as} with {@code
   * secret} (null: not authenticated); asserts no byte came; returns the error.
   */
  private static String fetchPaced(String host, String as, String app, String secret)
      throws Exception {
    AtomicLong bytes = new AtomicLong();
    try (PacedFetchClient.Factory clients =
            new PacedFetchClient.Factory(
                TRANSPORT, as, secret == null ? null : AppSecrets.of(secret));
        PacedFetchClient c = clients.connect(host, TestbedYarn.SERVICE_PACED_PORT)) {
      c.fetch(
              "attack",
              BlockSource.qualified(app, "1", "shuffle_0_0_0"),
              Pacer.UNLIMITED,
              b -> bytes.addAndGet(b.readableBytes()))
          .get(30, TimeUnit.SECONDS);
      throw new AssertionError(as + " fetched a block of " + app + " from " + host);
    } catch (ExecutionException e) {
      return String.valueOf(e.getCause().getMessage());
    } catch (java.io.IOException e) {
      return String.valueOf(e.getMessage());
    } finally {
      assertEquals(0, bytes.get(), "no byte reached " + as);
    }
  }
}
