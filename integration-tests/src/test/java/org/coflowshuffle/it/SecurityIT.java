/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import static org.coflowshuffle.it.DifferentialRuns.assertPlaced;
import static org.coflowshuffle.it.DifferentialRuns.plugin;
import static org.coflowshuffle.it.DifferentialRuns.rddQueriesAnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.AppSecrets;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.ratelimit.Pacer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The executors' paced block servers under Spark's authentication and encryption (network and local
 * disk), on a live application: clients without its secret get no block byte while its job goes on
 * and stays right, and a packet capture of its shuffle traffic shows none of its records (while the
 * same capture in clear shows them, so the check can fail).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityIT {

  private static final String SECRET = "it-secret";
  private static final Pattern SERVER =
      Pattern.compile("coflow: paced block server on ([^:\\s]+):(\\d+)");

  /** Values of the application's input that its shuffles carry: {@code name-K}, {@code dim-K}. */
  private static final Pattern RECORD = Pattern.compile("(name|dim)-\\d+");

  private DifferentialRuns runs;

  @BeforeAll
  void runStock() throws Exception {
    runs = DifferentialRuns.get();
  }

  private static Map<String, String> secured(boolean crypto) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.shuffle.readHostLocalDisk", "false");
    if (crypto) {
      conf.put("spark.authenticate", "true");
      conf.put("spark.authenticate.secret", SECRET);
      conf.put("spark.network.crypto.enabled", "true");
    }
    return plugin(conf);
  }

  @Test
  void clientsWithoutTheApplicationsSecretGetNoBlockByteAndItsJobStaysRight() throws Exception {
    Path hold = runs.work.resolve("security-hold");
    DifferentialRuns.clearHold(hold);
    // Shuffle files encrypted on disk too: the paced transport sends them as they are.
    Map<String, String> attacked = secured(true);
    attacked.put("spark.io.encryption.enabled", "true");
    CompletableFuture<Path> job =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return runs.submit("secured-attacked", attacked, true, List.of(hold.toString()));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String appId = DifferentialRuns.awaitHold(hold, job, runs.log("secured-attacked"));
    List<String[]> servers = servers(appId, true);
    long pacedBefore = runs.pacedBytes(appId);
    TransportConf encrypted =
        new TransportConf(
            "shuffle", new MapConfigProvider(Map.of("spark.network.crypto.enabled", "true")));
    List<String> errors = new ArrayList<>();
    for (String[] server : servers) {
      String host = server[0];
      int port = Integer.parseInt(server[1]);
      // No secret, a wrong secret for this application, another application's valid secret.
      errors.add(attack(encrypted, appId, null, host, port));
      errors.add(attack(encrypted, appId, AppSecrets.of("not-" + SECRET), host, port));
      errors.add(attack(encrypted, "app-other", AppSecrets.of("secret-of-app-other"), host, port));
    }
    DifferentialRuns.releaseHold(hold);
    JsonNode run = new ObjectMapper().readTree(job.get(5, TimeUnit.MINUTES).toFile());

    assertEquals(2, servers.size(), "both executors serve their blocks paced");
    for (String e : errors) {
      assertTrue(
          e.startsWith("cannot connect to ") || e.startsWith("the sender refused the fetch:"),
          "a clear error: " + e);
    }
    runs.assertSameResults(run, "secured-attacked");
    assertPlaced(run, rddQueriesAnd("sql join (AQE off)", "sql aggregate (AQE off)"));
    JsonNode results = run.get("results");
    assertEquals(
        results.get("rdd reduceByKey").asText(),
        results.get("rdd reduceByKey again").asText(),
        "the shuffle read again after the attacks gives the same result");
    assertTrue(
        runs.pacedBytes(appId) > pacedBefore,
        "after the attacks the servers went on serving the application, paced");
  }

  /** Waits for the application to hold; returns its id. */
  /**
   * Host and port of each executor's paced block server, from the executors' logs, which say
   * whether it authenticates as {@code authenticated}.
   */
  private List<String[]> servers(String appId, boolean authenticated) throws IOException {
    List<String[]> servers = new ArrayList<>();
    for (String line : runs.executorLines(appId)) {
      Matcher m = SERVER.matcher(line);
      if (m.find()) {
        assertEquals(
            authenticated, line.endsWith(", authenticated as Spark's transfers are"), line);
        servers.add(new String[] {m.group(1), m.group(2)});
      }
    }
    return servers;
  }

  /**
   * Tries to fetch the application's first map output block from a server as {@code app} with
   * {@code secrets} (null: without authenticating); asserts no byte came; returns the error.
   */
  private static String attack(
      TransportConf conf, String app, SecretKeyHolder secrets, String host, int port)
      throws Exception {
    AtomicLong bytes = new AtomicLong();
    try (PacedFetchClient.Factory clients = new PacedFetchClient.Factory(conf, app, secrets);
        PacedFetchClient client = clients.connect(host, port)) {
      client
          .fetch(
              "attack", "shuffle_0_0_0", Pacer.UNLIMITED, b -> bytes.addAndGet(b.readableBytes()))
          .get(30, TimeUnit.SECONDS);
      throw new AssertionError(app + " fetched a block from " + host + ":" + port);
    } catch (IOException e) {
      return e.getMessage();
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause().getMessage();
    } finally {
      assertEquals(0, bytes.get(), "no block byte reached " + app);
    }
  }

  @Test
  void aCaptureOfTheShuffleTrafficShowsRecordsOnlyInClear() throws Exception {
    Packets.ensureTcpdump();
    int inClear = recordsCaptured("captured-clear", false);
    int encrypted = recordsCaptured("captured-encrypted", true);
    assertTrue(inClear > 0, "in clear the capture shows records: " + inClear);
    assertEquals(0, encrypted, "encrypted, the capture shows no record");
  }

  /** Runs the application uncompressed, capturing loopback; counts records on the paced ports. */
  private int recordsCaptured(String name, boolean crypto) throws Exception {
    Map<String, String> conf = secured(crypto);
    conf.put("spark.shuffle.compress", "false");
    Path capture = runs.work.resolve(name + ".pcap");
    JsonNode run;
    try (Packets packets = Packets.capture(capture, runs.work.resolve(name + ".tcpdump.log"))) {
      run = runs.run(name, conf, true);
    }
    runs.assertSameResults(run, name);
    List<String[]> servers = servers(run.get("applicationId").asText(), crypto);
    assertEquals(2, servers.size(), name + ": both executors serve paced");
    assertTrue(runs.pacedBytes(run) > 1_000_000, name + ": shuffle blocks were fetched paced");
    String filter = String.join(" or ", servers.stream().map(s -> "tcp port " + s[1]).toList());
    byte[] shuffle = Packets.filter(capture, filter);
    assertTrue(shuffle.length > 100_000, name + ": the capture holds the shuffle traffic");
    Matcher m = RECORD.matcher(new String(shuffle, StandardCharsets.ISO_8859_1));
    int found = 0;
    while (m.find()) {
      found++;
    }
    return found;
  }
}
