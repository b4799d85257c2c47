/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.buffer.NioManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.ratelimit.BlockSource;
import org.coflowshuffle.ratelimit.PacedBlockServer;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.spark.Messages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paced client against a real paced server on loopback; the driver (a plugin context) and
 * Spark's own client are the seams.
 */
class PacedShuffleClientTest {

  @TempDir Path dir;
  private static final TransportConf TRANSPORT =
      new TransportConf("shuffle", MapConfigProvider.EMPTY);

  private PacedBlockServer server;

  /** Bytes a client may hold of blocks fetched ahead of their tasks. */
  private static final long EARLY = 1 << 20;

  /** How often the paced server served the block it has. */
  private final java.util.concurrent.atomic.AtomicInteger served =
      new java.util.concurrent.atomic.AtomicInteger();

  private static PacedFetchClient.Factory connections() {
    return new PacedFetchClient.Factory(TRANSPORT, "app-7", null);
  }

  private int serverPort;
  private final List<String> sparkFetched = new CopyOnWriteArrayList<>();
  private PacedShuffleClient client;
  private byte[] content;

  /** Spark's client, answering every block with its own name. */
  private final BlockStoreClient spark =
      new BlockStoreClient() {
        @Override
        public void fetchBlocks(
            String host,
            int port,
            String execId,
            String[] blockIds,
            BlockFetchingListener listener,
            DownloadFileManager downloadFileManager) {
          for (String b : blockIds) {
            sparkFetched.add(b);
            byte[] bytes = ("spark:" + b).getBytes(StandardCharsets.UTF_8);
            listener.onBlockFetchSuccess(b, new NioManagedBuffer(ByteBuffer.wrap(bytes)));
          }
        }

        @Override
        public void close() {}
      };

  private PluginContext driver;

  @BeforeEach
  void start() throws Exception {
    content = "the bytes of map 0 for reducer 0".getBytes(StandardCharsets.UTF_8);
    File file = Files.write(dir.resolve("data"), content).toFile();
    BlockSource source =
        id -> {
          if (id.equals("shuffle_0_0_0")) {
            served.incrementAndGet();
            return new BlockSource.Segment(file, 0, content.length);
          }
          throw new IOException("gone");
        };
    server = new PacedBlockServer(source, TRANSPORT, null);
    int port = server.start("127.0.0.1", 0);
    serverPort = port;
    driver = mock(PluginContext.class);
    when(driver.executorID()).thenReturn("R");
    when(driver.ask(any()))
        .thenAnswer(
            call -> {
              Object m = call.getArgument(0);
              if (m instanceof Messages.WhereIsPaced) {
                return "127.0.0.1:" + port;
              }
              if (m instanceof Messages.RateQueries q) {
                double[] rates = new double[q.reducers().length];
                Arrays.fill(rates, 1e9);
                return rates;
              }
              return Boolean.TRUE;
            });
    DriverLink.connect(driver);
    client =
        new PacedShuffleClient(spark, PacedShuffleClient.executorServers(), connections(), EARLY);
  }

  @AfterEach
  void stop() {
    client.stop();
    server.close();
    DriverLink.disconnect();
  }

  /** Collects what a fetch delivers, block by block. */
  private static final class Collected implements BlockFetchingListener {
    final Map<String, byte[]> blocks = new ConcurrentHashMap<>();

    @Override
    public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
      try {
        ByteBuffer b = data.nioByteBuffer();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        blocks.put(blockId, bytes);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void onBlockFetchFailure(String blockId, Throwable exception) {
      blocks.put(blockId, ("failed: " + exception.getMessage()).getBytes(StandardCharsets.UTF_8));
    }

    void await(int n) throws InterruptedException {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (blocks.size() < n && System.nanoTime() < end) {
        Thread.sleep(10);
      }
    }
  }

  @Test
  void pacedBlocksArriveAndWhatFailsIsFetchedBySpark() throws Exception {
    Collected got = new Collected();
    client.fetchBlocks(
        "h", 1, "exec-1", new String[] {"shuffle_0_0_0", "shuffle_0_1_0"}, got, null);
    got.await(2);
    assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"), "through the paced transport");
    assertEquals(
        "spark:shuffle_0_1_0",
        new String(got.blocks.get("shuffle_0_1_0"), StandardCharsets.UTF_8),
        "a block the paced sender cannot serve is fetched by Spark's client");
    assertEquals(List.of("shuffle_0_1_0"), sparkFetched);
    verify(driver, timeout(5000)).send(new Messages.Unpaced(0, 0, "exec-1", "fetch", "R"));
  }

  @Test
  void withNodeServicesBlocksAreAskedForByQualifiedNameOnTheServicePort() throws Exception {
    File file = dir.resolve("data").toFile();
    List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    PacedBlockServer service =
        new PacedBlockServer(
            name -> {
              asked.add(name);
              return new BlockSource.Segment(file, 0, content.length);
            },
            TRANSPORT,
            null);
    int port = service.start("127.0.0.1", 0);
    PacedShuffleClient viaService =
        new PacedShuffleClient(
            spark, PacedShuffleClient.nodeService("app-7", port), connections(), EARLY);
    try {
      Collected got = new Collected();
      viaService.fetchBlocks(
          "127.0.0.1", 7337, "exec-2", new String[] {"shuffle_0_0_0"}, got, null);
      got.await(1);
      assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"));
      assertEquals(List.of("app-7/exec-2/shuffle_0_0_0"), asked);
      assertEquals(List.of(), sparkFetched, "nothing went to Spark's client");
    } finally {
      viaService.stop();
      service.close();
    }
  }

  /**
   * A client whose driver (now {@link #driver}) holds every flow (rate 0), noting how many
   * questions each rate ask carried; flows held {@code stallMillis} go unpaced.
   */
  private PacedShuffleClient heldClient(List<Integer> questionsPerAsk, long stallMillis)
      throws Exception {
    PluginContext holding = mock(PluginContext.class);
    int port = serverPort;
    when(holding.ask(any()))
        .thenAnswer(
            call -> {
              Object m = call.getArgument(0);
              if (m instanceof Messages.RateQueries q) {
                questionsPerAsk.add(q.reducers().length);
                return new double[q.reducers().length];
              }
              return m instanceof Messages.WhereIsPaced ? "127.0.0.1:" + port : Boolean.TRUE;
            });
    DriverLink.disconnect();
    DriverLink.connect(holding);
    driver = holding;
    return new PacedShuffleClient(
        spark,
        PacedShuffleClient.executorServers(),
        connections(),
        EARLY,
        TimeUnit.MILLISECONDS.toNanos(stallMillis));
  }

  @Test
  void eachFlowThatMayMoveAtOnceTimesItsStartInTheMetrics() throws Exception {
    long before = ExecutorMetrics.flowStartMillis.getCount();
    Collected got = new Collected();
    client.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
    got.await(1);
    assertEquals(before + 1, ExecutorMetrics.flowStartMillis.getCount());
    PacedShuffleClient held = heldClient(new CopyOnWriteArrayList<>(), 600);
    try {
      Collected late = new Collected();
      held.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, late, null);
      late.await(1);
      assertEquals(
          before + 1,
          ExecutorMetrics.flowStartMillis.getCount(),
          "a flow held at first times its wait, not its start: not counted");
    } finally {
      held.stop();
    }
  }

  @Test
  void aFlowHeldPastTheStallLimitGoesUnpaced() throws Exception {
    PacedShuffleClient held = heldClient(new CopyOnWriteArrayList<>(), 600);
    try {
      Collected got = new Collected();
      long start = System.nanoTime();
      held.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
      got.await(1);
      double seconds = (System.nanoTime() - start) / 1e9;
      assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"), "delivered after all");
      assertTrue(seconds >= 0.6, "held until the limit: " + seconds + " s");
      assertEquals(List.of(), sparkFetched, "by the paced transport, unpaced");
    } finally {
      held.stop();
    }
  }

  @Test
  void theFlowsOfAnExecutorAskTheirRatesInOneMessage() throws Exception {
    List<Integer> questionsPerAsk = new CopyOnWriteArrayList<>();
    PacedShuffleClient held = heldClient(questionsPerAsk, 600);
    try {
      Collected first = new Collected();
      Collected second = new Collected();
      held.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, first, null);
      held.fetchBlocks("h", 1, "exec-2", new String[] {"shuffle_0_0_0"}, second, null);
      first.await(1);
      second.await(1);
      assertArrayEquals(content, second.blocks.get("shuffle_0_0_0"), "delivered after all");
      assertTrue(
          questionsPerAsk.contains(2),
          "while both were held, one ask carried both flows' questions: " + questionsPerAsk);
    } finally {
      held.stop();
    }
  }

  @Test
  void progressRidesOnTheRateAsksWhileAFlowRuns() throws Exception {
    byte[] big = new byte[60_000];
    File file = Files.write(dir.resolve("big"), big).toFile();
    PacedBlockServer slow =
        new PacedBlockServer(id -> new BlockSource.Segment(file, 0, big.length), TRANSPORT, null);
    int port = slow.start("127.0.0.1", 0);
    List<Long> onAsks = new CopyOnWriteArrayList<>();
    List<Long> atTheEnd = new CopyOnWriteArrayList<>();
    PluginContext driver = mock(PluginContext.class);
    when(driver.ask(any()))
        .thenAnswer(
            call -> {
              Object m = call.getArgument(0);
              if (m instanceof Messages.RateQueries q) {
                Arrays.stream(q.delivered()).forEach(onAsks::add);
                double[] rates = new double[q.reducers().length];
                Arrays.fill(rates, 50_000); // 1.2 s for the block
                return rates;
              }
              return m instanceof Messages.WhereIsPaced ? "127.0.0.1:" + port : Boolean.TRUE;
            });
    doAnswer(call -> atTheEnd.add(((Messages.Delivered) call.getArgument(0)).bytes()))
        .when(driver)
        .send(any());
    DriverLink.disconnect();
    DriverLink.connect(driver);
    PacedShuffleClient paced =
        new PacedShuffleClient(spark, PacedShuffleClient.executorServers(), connections(), EARLY);
    try {
      Collected got = new Collected();
      paced.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
      got.await(1);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (onAsks.stream().mapToLong(Long::longValue).sum()
                  + atTheEnd.stream().mapToLong(Long::longValue).sum()
              < big.length
          && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      long told = onAsks.stream().mapToLong(Long::longValue).sum();
      assertEquals(big.length, got.blocks.get("shuffle_0_0_0").length);
      assertTrue(told > big.length / 2, "most bytes were told while the flow ran: " + onAsks);
      assertEquals(
          big.length,
          told + atTheEnd.stream().mapToLong(Long::longValue).sum(),
          "every byte told once: asks " + onAsks + ", at the end " + atTheEnd);
    } finally {
      paced.stop();
      slow.close();
    }
  }

  /** The blocks of reducer 0 of shuffle 0 that exec-1 holds, to fetch early. */
  private List<PrefetchedBlocks.Source> reducer0(String... blockIds) {
    long[] sizes = new long[blockIds.length];
    Arrays.fill(sizes, content.length);
    return List.of(new PrefetchedBlocks.Source("h", 1, "exec-1", blockIds, sizes));
  }

  private void awaitServed(int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (served.get() < n && System.nanoTime() < end) {
      Thread.sleep(10);
    }
  }

  @Test
  void blocksFetchedBeforeTheTaskAreHandedToItWithoutAnotherFetch() throws Exception {
    assertTrue(client.prefetch(0, 0, reducer0("shuffle_0_0_0")));
    awaitServed(1);
    Thread.sleep(100); // the block has reached the client
    Collected got = new Collected();
    client.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
    got.await(1);
    assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"));
    assertEquals(1, served.get(), "fetched once, before the task asked");
    assertEquals(content.length, client.prefetchedBytes());
  }

  @Test
  void aTaskThatAsksWhileTheEarlyFetchRunsGetsItsBlocksAsTheyArrive() throws Exception {
    Collected got = new Collected();
    assertTrue(client.prefetch(0, 0, reducer0("shuffle_0_0_0", "shuffle_0_1_0")));
    client.fetchBlocks(
        "h", 1, "exec-1", new String[] {"shuffle_0_0_0", "shuffle_0_1_0"}, got, null);
    got.await(2);
    assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"));
    assertEquals(
        "spark:shuffle_0_1_0",
        new String(got.blocks.get("shuffle_0_1_0"), StandardCharsets.UTF_8),
        "a block the paced sender could not serve came from Spark's client, as any fetch's does");
    assertEquals(1, served.get());
    assertEquals(List.of("shuffle_0_1_0"), sparkFetched, "each block fetched once");
  }

  @Test
  void aReducerWhoseTaskAskedFirstIsNotFetchedAgain() throws Exception {
    Collected got = new Collected();
    client.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
    got.await(1);
    assertTrue(!client.prefetch(0, 0, reducer0("shuffle_0_0_0")), "the task fetched already");
    Thread.sleep(200);
    assertEquals(1, served.get());
  }

  @Test
  void nothingIsFetchedEarlyPastTheBudgetAndWhatSparkDropsIsFetchedAfresh() throws Exception {
    PacedShuffleClient small =
        new PacedShuffleClient(
            spark, PacedShuffleClient.executorServers(), connections(), content.length);
    try {
      assertTrue(!small.prefetch(0, 1, reducer0("shuffle_0_0_1", "shuffle_0_1_1")), "too big");
      assertTrue(small.prefetch(0, 0, reducer0("shuffle_0_0_0")));
      awaitServed(1);
      assertTrue(
          !small.prefetch(1, 0, reducer0("shuffle_1_0_0")), "the budget is held until taken");
      small.forget(0); // Spark dropped shuffle 0: its blocks go, and so does their hold
      assertTrue(small.prefetch(1, 0, reducer0("shuffle_1_0_0")));
      assertEquals(
          1, small.footprint().get("prefetchedReducers"), "only shuffle 1's reducer is noted");
    } finally {
      small.stop();
    }
  }

  /** Waits until {@code c} has {@code n} flows fetching; returns how many it has then. */
  private static int awaitFlows(PacedShuffleClient c, int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (c.footprint().get("activeFlows") != n && System.nanoTime() < end) {
      Thread.sleep(10);
    }
    return c.footprint().get("activeFlows");
  }

  @Test
  void whatIsFetchedAheadForATaskThatStartedElsewhereIsDroppedNotFetchedBySpark() throws Exception {
    PacedShuffleClient held = heldClient(new CopyOnWriteArrayList<>(), 60_000);
    try {
      assertTrue(held.prefetch(0, 0, reducer0("shuffle_0_0_0")));
      assertEquals(1, awaitFlows(held, 1), "the early fetch is held at rate 0");
      held.dropPrefetch(0, 0); // its task started on another executor
      assertEquals(0, held.footprint().get("activeFlows"));
      assertEquals(0, held.footprint().get("prefetchedReducers"), "its blocks are let go");
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (held.footprint().get("pacedConnections") > 0 && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      assertEquals(0, held.footprint().get("pacedConnections"), "its connection is closed");
      Thread.sleep(200);
      assertEquals(List.of(), sparkFetched, "nothing falls back to Spark's client");
      verify(driver, never()).send(any(Messages.Unpaced.class));
      verify(driver, never()).send(any(Messages.Delivered.class));
    } finally {
      held.stop();
    }
  }

  @Test
  void aReducerFetchedAheadAsksTheFirstRatesOfItsFlowsInOneMessage() throws Exception {
    List<Integer> questionsPerAsk = new CopyOnWriteArrayList<>();
    PacedShuffleClient held = heldClient(questionsPerAsk, 60_000);
    try {
      long[] size = {content.length};
      assertTrue(
          held.prefetch(
              0,
              0,
              List.of(
                  new PrefetchedBlocks.Source(
                      "h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, size),
                  new PrefetchedBlocks.Source(
                      "h", 1, "exec-2", new String[] {"shuffle_0_1_0"}, size))));
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (questionsPerAsk.isEmpty() && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      assertEquals(
          List.of(2),
          questionsPerAsk.subList(0, Math.min(1, questionsPerAsk.size())),
          "the first ask carried both flows' first questions: " + questionsPerAsk);
    } finally {
      held.stop();
    }
  }

  @Test
  void aReducerWhoseTaskAskedHereIsNotDropped() throws Exception {
    assertTrue(client.prefetch(0, 0, reducer0("shuffle_0_0_0")));
    Collected got = new Collected();
    client.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, null);
    client.dropPrefetch(0, 0); // an order that crossed the task's start here
    got.await(1);
    assertArrayEquals(content, got.blocks.get("shuffle_0_0_0"));
    assertEquals(1, served.get(), "fetched once, for the task");
  }

  @Test
  void fetchesItCannotPaceGoToSparkUnchanged() throws Exception {
    Collected got = new Collected();
    client.fetchBlocks("h", 1, "exec-1", new String[] {"rdd_3_1"}, got, null);
    DownloadFileManager toDisk = mock(DownloadFileManager.class);
    client.fetchBlocks("h", 1, "exec-1", new String[] {"shuffle_0_0_0"}, got, toDisk);
    got.await(2);
    assertEquals(List.of("rdd_3_1", "shuffle_0_0_0"), sparkFetched);
  }

  @Test
  void parsesShuffleBlockIds() {
    assertArrayEquals(new int[] {3, 5, 6}, PacedShuffleClient.parse("shuffle_3_17_5"));
    assertArrayEquals(new int[] {3, 5, 8}, PacedShuffleClient.parse("shuffle_3_17_5_8"));
    assertNull(PacedShuffleClient.parse("shuffleChunk_3_0_5_1"));
    assertNull(PacedShuffleClient.parse("shuffle_x_1_2"));
    assertNull(PacedShuffleClient.parse("rdd_1_2"));
    assertTrue(PacedShuffleClient.REFRESH_MS > 0);
  }
}
