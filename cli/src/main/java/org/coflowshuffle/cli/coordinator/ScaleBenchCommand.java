/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import java.io.InputStream;
import java.io.PrintStream;
import java.lang.ref.Reference;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.coordinator.client.Credentials;
import org.coflowshuffle.coordinator.client.RemoteCoordinator;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.ShuffleCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.coflowshuffle.coordinator.server.CoordinatorConf;
import org.coflowshuffle.coordinator.server.CoordinatorServer;

/**
 * {@code coflow bench scale} ({@link #OPTIONS}): one shuffle of {@code maps} × {@code reducers} map
 * outputs over {@code hosts} executors, reported and placed as a Spark driver does, once through
 * the coordinator embedded in the driver and once through the standalone service (its server and
 * the driver's link both in this JVM, over loopback). Prints, per path, the time to take in the map
 * outputs, the time to place the stage, and the heap the coordinator retains once it is placed
 * (live heap after a full collection, less what it was before the coordinator was made; for the
 * service, server and driver link together). With {@code --json} the last line holds the worse of
 * the two paths for each figure, and each path's own.
 *
 * <p>The map outputs are drawn at random (a fixed seed), each map on executor {@code map mod
 * hosts}; drawing them is not timed.
 */
public final class ScaleBenchCommand implements Command {

  private static final String PREFIX = "coflow bench scale: ";

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench scale",
              "one large shuffle through the coordinator: retained heap, ingest and place time")
          .value("--maps", "10000", "map tasks")
          .value("--reducers", "10000", "reducers")
          .value("--hosts", "100", "hosts, one executor each")
          .value("--cores", "16", "cores per executor")
          .value("--scheme", "rpc", "scheme placing the stage")
          .flag("--json", "end with one JSON line");

  /** One path's figures. */
  record Figures(long retainedHeapBytes, double ingestSeconds, double placeSeconds) {
    Figures worst(Figures o) {
      return new Figures(
          Math.max(retainedHeapBytes, o.retainedHeapBytes),
          Math.max(ingestSeconds, o.ingestSeconds),
          Math.max(placeSeconds, o.placeSeconds));
    }

    String json() {
      return String.format(
          Locale.ROOT,
          "\"retainedHeapBytes\":%d,\"ingestSeconds\":%.3f,\"placeSeconds\":%.3f",
          retainedHeapBytes,
          ingestSeconds,
          placeSeconds);
    }
  }

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    int maps;
    int reducers;
    int hosts;
    int cores;
    String scheme;
    Flags f;
    try {
      f = OPTIONS.parse(args);
      maps = f.positiveInt("--maps", 10_000);
      reducers = f.positiveInt("--reducers", 10_000);
      hosts = f.positiveInt("--hosts", 100);
      cores = f.positiveInt("--cores", 16);
      scheme = f.string("--scheme", "rpc");
    } catch (IllegalArgumentException e) {
      err.println(PREFIX + e.getMessage());
      return USAGE;
    }
    try {
      CoordinatorConf conf =
          CoordinatorConf.from(
              Map.of(
                  CoordinatorConf.PORT.name(), "0",
                  CoordinatorConf.HTTP_PORT.name(), "0",
                  CoordinatorConf.SCHEME.name(), scheme,
                  CoordinatorConf.CLIENT_TIMEOUT.name(), "10min"));
      out.printf(
          Locale.ROOT,
          "%d maps x %d reducers over %d hosts (%d cores each), scheme %s%n",
          maps,
          reducers,
          hosts,
          cores,
          scheme);
      out.printf(
          Locale.ROOT, "%-10s %14s %10s %10s%n", "path", "retained MiB", "ingest s", "place s");
      Shuffle shuffle = new Shuffle(maps, reducers, hosts, cores);
      Figures embedded = shuffle.run(() -> conf.newLiveCoordinator(ScaleBenchCommand::seconds));
      print(out, "embedded", embedded);
      Figures service;
      try (CoordinatorServer server = CoordinatorServer.start(conf)) {
        InetSocketAddress at = server.address();
        service =
            shuffle.run(
                () ->
                    new RemoteCoordinator(
                        at,
                        () -> "bench-scale",
                        Credentials.NONE,
                        Duration.ofMinutes(5),
                        l -> {},
                        err::println));
      }
      print(out, "service", service);
      if (f.has("--json")) {
        out.printf(
            Locale.ROOT,
            "{\"maps\":%d,\"reducers\":%d,\"hosts\":%d,%s,\"embedded\":{%s},\"service\":{%s}}%n",
            maps,
            reducers,
            hosts,
            embedded.worst(service).json(),
            embedded.json(),
            service.json());
      }
      return 0;
    } catch (Exception e) {
      err.println(PREFIX + Command.oneLine(String.valueOf(e.getMessage())));
      return FAILURE;
    }
  }

  private static void print(PrintStream out, String path, Figures f) {
    out.printf(
        Locale.ROOT,
        "%-10s %14.1f %10.3f %10.3f%n",
        path,
        f.retainedHeapBytes() / (1024.0 * 1024),
        f.ingestSeconds(),
        f.placeSeconds());
  }

  private static final long START = System.nanoTime();

  private static double seconds() {
    return (System.nanoTime() - START) / 1e9;
  }

  /** A coordinator to measure: made after the heap's baseline is taken. */
  private interface Maker {
    ShuffleCoordinator make() throws Exception;
  }

  /** The shuffle every path is given. */
  private record Shuffle(int maps, int reducers, int hosts, int cores) {

    Figures run(Maker maker) throws Exception {
      long before = liveHeap();
      ShuffleCoordinator c = maker.make();
      try {
        for (int h = 0; h < hosts; h++) {
          c.executorAdded(new ExecutorSlots(String.valueOf(h), "host" + h, cores));
        }
        if (c instanceof RemoteCoordinator r) {
          awaitConnected(r);
        }
        SplittableRandom random = new SplittableRandom(1);
        long ingestNanos = 0;
        long[] bytes = new long[reducers];
        for (int m = 0; m < maps; m++) {
          for (int r = 0; r < reducers; r++) {
            bytes[r] = random.nextLong(200_000);
          }
          long t0 = System.nanoTime();
          c.mapOutput(0, m, String.valueOf(m % hosts), bytes);
          ingestNanos += System.nanoTime() - t0;
        }
        long t0 = System.nanoTime();
        ShufflePlacement p = c.place(0, maps, reducers);
        double placeSeconds = (System.nanoTime() - t0) / 1e9;
        if (p.executorOfReducer().size() != reducers) {
          throw new IllegalStateException("placed " + p.executorOfReducer().size() + " reducers");
        }
        long retained = liveHeap() - before;
        Reference.reachabilityFence(c);
        return new Figures(retained, ingestNanos / 1e9, placeSeconds);
      } finally {
        if (c instanceof AutoCloseable a) {
          a.close();
        }
      }
    }
  }

  private static void awaitConnected(RemoteCoordinator r) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!r.connected()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the service did not answer within 30 s");
      }
      Thread.sleep(20);
    }
  }

  /** Bytes of heap in use after full collections, so that only what is reachable counts. */
  private static long liveHeap() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }
}
