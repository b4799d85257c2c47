/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.fetch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.client.ChunkReceivedCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.server.NoOpRpcHandler;
import org.apache.spark.network.util.TransportConf;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;
import org.coflowshuffle.ratelimit.PacedFetchClient;
import org.coflowshuffle.ratelimit.Pacer;

/**
 * {@code coflow bench fetch}: the rate limiter between two JVMs on loopback. Prints, per target
 * rate, the rate a paced fetch achieved; the rates of one fetch whose rate changes twice while it
 * runs; and unlimited throughput of our transport against Spark's own block transport on the same
 * blocks. It asserts nothing: timings belong in benchmarks.
 */
public final class FetchBenchCommand implements Command {

  static final CommandOptions OPTIONS =
      CommandOptions.of(
              "bench fetch",
              "time the paced fetch: rate accuracy, rate changes, throughput against Spark's")
          .value("--rates", "1,2,5,10,20,50,100", "target rates, MB/s, one paced fetch each")
          .value("--seconds", "3", "how long each paced fetch runs")
          .value("--file-mb", "256", "size of the file the blocks come from")
          .value("--block-mb", "8", "size of one block")
          .value("--repeats", "5", "unlimited transfers per transport, alternated")
          .flag(
              "--crypto",
              "both transports authenticate and encrypt as Spark does with"
                  + " spark.network.crypto.enabled");
  private static final double MB = 1e6;

  @Override
  public CommandOptions options() {
    return OPTIONS;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
    Flags f;
    try {
      f = OPTIONS.parse(args);
      f.positiveDoubles("--rates", 1);
      f.positiveDouble("--seconds", 3);
      f.positiveInt("--file-mb", 256);
      f.positiveInt("--block-mb", 8);
      f.positiveInt("--repeats", 5);
    } catch (IllegalArgumentException e) {
      err.println("coflow bench fetch: " + e.getMessage());
      return USAGE;
    }
    double[] rates = f.positiveDoubles("--rates", 1);
    if (!f.has("--rates")) {
      rates = new double[] {1, 2, 5, 10, 20, 50, 100};
    }
    double seconds = f.positiveDouble("--seconds", 3);
    long fileBytes = f.positiveInt("--file-mb", 256) * 1_000_000L;
    long blockBytes = f.positiveInt("--block-mb", 8) * 1_000_000L;
    int repeats = f.positiveInt("--repeats", 5);
    boolean crypto = f.has("--crypto");
    Path file = null;
    try {
      file = Files.createTempFile("coflow-fetch-bench", ".data");
      write(file, fileBytes);
      out.printf(
          Locale.ROOT,
          "loopback, sender and fetcher in two JVMs, %d cores, file %d MB (page cache)%s%n",
          Runtime.getRuntime().availableProcessors(),
          fileBytes / 1_000_000,
          crypto ? ", authenticated and encrypted (spark.network.crypto.enabled)" : "");
      try (Peer paced = Peer.start("paced", file, blockBytes, crypto);
          PacedFetchClient.Factory clients =
              new PacedFetchClient.Factory(
                  FetchServerMain.conf(crypto), "bench", FetchServerMain.secrets(crypto))) {
        accuracy(out, clients, paced, rates, seconds, fileBytes);
        rateChanges(out, clients, paced, fileBytes);
        try (Peer spark = Peer.start("spark", file, blockBytes, crypto)) {
          throughput(out, clients, paced, spark, fileBytes, blockBytes, repeats, crypto);
        }
      }
      return 0;
    } catch (Exception e) {
      err.println("coflow bench fetch: " + e);
      return FAILURE;
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException ignored) {
          // a temporary file; the OS cleans it up
        }
      }
    }
  }

  private static void accuracy(
      PrintStream out,
      PacedFetchClient.Factory clients,
      Peer paced,
      double[] rates,
      double seconds,
      long fileBytes)
      throws Exception {
    out.println();
    out.println("paced fetch, one flow: target vs achieved (bytes / time to the last byte)");
    out.printf(Locale.ROOT, "%10s %10s %12s %8s%n", "MB/s", "MB", "achieved", "error");
    try (PacedFetchClient c = clients.connect("127.0.0.1", paced.port)) {
      c.fetch("warm", "0:" + Math.min(fileBytes, 50_000_000), Pacer.UNLIMITED, b -> {}).get();
      int n = 0;
      for (double r : rates) {
        long bytes = (long) Math.min(fileBytes, Math.max(1_000_000, r * MB * seconds));
        long t0 = System.nanoTime();
        c.fetch("flow-" + n++, "0:" + bytes, r * MB, b -> {}).get(10 * 60, TimeUnit.SECONDS);
        double achieved = bytes / ((System.nanoTime() - t0) / 1e9) / MB;
        out.printf(
            Locale.ROOT,
            "%10.1f %10.1f %12.3f %+7.2f%%%n",
            r,
            bytes / MB,
            achieved,
            100 * (achieved / r - 1));
      }
    }
  }

  private static void rateChanges(
      PrintStream out, PacedFetchClient.Factory clients, Peer paced, long fileBytes)
      throws Exception {
    double[] phases = {10, 40, 20};
    double phaseSeconds = 2;
    long bytes = (long) Math.min(fileBytes, Arrays.stream(phases).sum() * MB * phaseSeconds);
    List<long[]> arrivals = new ArrayList<>(); // {nanos since start, bytes so far}
    AtomicLong got = new AtomicLong();
    out.println();
    out.printf(
        Locale.ROOT,
        "one fetch of %.0f MB whose rate changes every %.0f s: %s MB/s%n",
        bytes / MB,
        phaseSeconds,
        Arrays.toString(phases));
    try (PacedFetchClient c = clients.connect("127.0.0.1", paced.port)) {
      long t0 = System.nanoTime();
      CompletableFuture<Long> done =
          c.fetch(
              "changing",
              "0:" + bytes,
              phases[0] * MB,
              b -> {
                long total = got.addAndGet(b.readableBytes());
                synchronized (arrivals) {
                  arrivals.add(new long[] {System.nanoTime() - t0, total});
                }
              });
      for (int p = 1; p < phases.length; p++) {
        Thread.sleep((long) (phaseSeconds * 1000 * p) - (System.nanoTime() - t0) / 1_000_000);
        c.setRate("changing", phases[p] * MB);
      }
      done.get(10 * 60, TimeUnit.SECONDS);
    }
    out.printf(Locale.ROOT, "%8s %12s %12s %8s%n", "phase", "target MB/s", "achieved", "error");
    for (int p = 0; p < phases.length; p++) {
      // The middle of each phase, away from the switch.
      double from = phaseSeconds * p + 0.25;
      double to = phaseSeconds * (p + 1) - 0.25;
      double achieved = rateBetween(arrivals, from, to);
      out.printf(
          Locale.ROOT,
          "%8d %12.1f %12.3f %+7.2f%%%n",
          p + 1,
          phases[p],
          achieved,
          100 * (achieved / phases[p] - 1));
    }
  }

  /** Bytes per second received between two times (seconds since the fetch began). */
  private static double rateBetween(List<long[]> arrivals, double from, double to) {
    long[] first = null;
    long[] last = null;
    for (long[] a : arrivals) {
      double t = a[0] / 1e9;
      if (t >= from && first == null) {
        first = a;
      }
      if (t <= to) {
        last = a;
      }
    }
    if (first == null || last == null || last[0] <= first[0]) {
      return Double.NaN;
    }
    return (last[1] - first[1]) / ((last[0] - first[0]) / 1e9) / MB;
  }

  private static void throughput(
      PrintStream out,
      PacedFetchClient.Factory clients,
      Peer paced,
      Peer spark,
      long fileBytes,
      long blockBytes,
      int repeats,
      boolean crypto)
      throws Exception {
    int blocks = (int) (fileBytes / blockBytes);
    out.println();
    out.printf(
        Locale.ROOT,
        "no limit: %d blocks of %d MB fetched at once over one connection, %d rounds%n",
        blocks,
        blockBytes / 1_000_000,
        repeats);
    TransportConf conf = FetchServerMain.conf(crypto);
    TransportContext context = new TransportContext(conf, new NoOpRpcHandler());
    double[] ours = new double[repeats];
    double[] theirs = new double[repeats];
    try (PacedFetchClient c = clients.connect("127.0.0.1", paced.port);
        TransportClientFactory factory =
            context.createClientFactory(
                crypto
                    ? List.of(new AuthClientBootstrap(conf, "bench", FetchServerMain.secrets(true)))
                    : List.of())) {
      TransportClient sc = factory.createClient("127.0.0.1", spark.port);
      oursOnce(c, blocks, blockBytes); // warm-up
      sparkOnce(sc, blocks);
      for (int i = 0; i < repeats; i++) {
        ours[i] = blocks * blockBytes / oursOnce(c, blocks, blockBytes) / MB;
        theirs[i] = blocks * blockBytes / sparkOnce(sc, blocks) / MB;
      }
    }
    Arrays.sort(ours);
    Arrays.sort(theirs);
    out.printf(Locale.ROOT, "%-28s %10s %10s %10s%n", "transport", "median", "min", "max");
    out.printf(
        Locale.ROOT,
        "%-28s %10.0f %10.0f %10.0f MB/s%n",
        "paced (no limit)",
        ours[repeats / 2],
        ours[0],
        ours[repeats - 1]);
    out.printf(
        Locale.ROOT,
        "%-28s %10.0f %10.0f %10.0f MB/s%n",
        "Spark TransportClient chunks",
        theirs[repeats / 2],
        theirs[0],
        theirs[repeats - 1]);
    out.printf(
        Locale.ROOT, "paced / Spark (medians): %.3f%n", ours[repeats / 2] / theirs[repeats / 2]);
  }

  /** Seconds to fetch every block through our transport, all asked at once. */
  private static double oursOnce(PacedFetchClient c, int blocks, long blockBytes) throws Exception {
    long t0 = System.nanoTime();
    List<CompletableFuture<Long>> all = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      all.add(c.fetch("bulk", i * blockBytes + ":" + blockBytes, Pacer.UNLIMITED, b -> {}));
    }
    CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Seconds to fetch every block through Spark's transport: open the stream, fetch all chunks. */
  private static double sparkOnce(TransportClient client, int blocks) throws Exception {
    long t0 = System.nanoTime();
    ByteBuffer reply = client.sendRpcSync(ByteBuffer.allocate(1), 60_000);
    long stream = reply.getLong(0);
    CompletableFuture<?>[] all = new CompletableFuture<?>[blocks];
    for (int i = 0; i < blocks; i++) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      all[i] = done;
      client.fetchChunk(
          stream,
          i,
          new ChunkReceivedCallback() {
            @Override
            public void onSuccess(int chunkIndex, ManagedBuffer buffer) {
              done.complete(null);
            }

            @Override
            public void onFailure(int chunkIndex, Throwable e) {
              done.completeExceptionally(e);
            }
          });
    }
    CompletableFuture.allOf(all).get(10, TimeUnit.MINUTES);
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void write(Path file, long bytes) throws IOException {
    byte[] buf = new byte[1 << 20];
    new Random(1).nextBytes(buf);
    try (OutputStream os = Files.newOutputStream(file)) {
      for (long left = bytes; left > 0; left -= buf.length) {
        os.write(buf, 0, (int) Math.min(left, buf.length));
      }
    }
  }

  /** A sending JVM ({@link FetchServerMain}). */
  private static final class Peer implements AutoCloseable {
    final Process process;
    final int port;

    private Peer(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static Peer start(String mode, Path file, long blockBytes, boolean crypto) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      Process p =
          new ProcessBuilder(
                  java,
                  "-cp",
                  System.getProperty("java.class.path"),
                  FetchServerMain.class.getName(),
                  mode,
                  file.toString(),
                  Long.toString(blockBytes),
                  crypto ? "crypto" : "clear")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = r.readLine();
      if (line == null || !line.startsWith("port ")) {
        p.destroyForcibly();
        throw new IOException("the " + mode + " sender did not start");
      }
      return new Peer(p, Integer.parseInt(line.substring(5).trim()));
    }

    @Override
    public void close() throws Exception {
      process.getOutputStream().close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
