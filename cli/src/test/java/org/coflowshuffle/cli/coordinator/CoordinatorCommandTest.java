/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.coordinator.client.CoordinatorClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoordinatorCommandTest {

  @TempDir Path dir;

  @Test
  void printsWhereItListensAndServesUntilStopped() throws Exception {
    Path conf = dir.resolve("coordinator.properties");
    Files.writeString(conf, "coflow.coordinator.scheme=varys\n");
    CountDownLatch stop = new CountDownLatch(1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> status =
          thread.submit(
              () ->
                  new CoordinatorCommand(stop, Map.of(CoordinatorCommand.SECRET_ENV, "k"))
                      .run(
                          new String[] {
                            "--port", "0", "--http-port", "0", "--conf", conf.toString()
                          },
                          new PrintStream(out, true, StandardCharsets.UTF_8),
                          System.err,
                          new ByteArrayInputStream(new byte[0])));
      Pattern line = Pattern.compile("protocol on \\S+:(\\d+), status on http://\\S+:\\d+/");
      Matcher m = line.matcher("");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!m.find() && System.nanoTime() < deadline) {
        Thread.sleep(20);
        m = line.matcher(out.toString(StandardCharsets.UTF_8));
      }
      String printed = out.toString(StandardCharsets.UTF_8);
      assertTrue(
          printed.contains("scheme varys, shared secret, frames sealed after the hello"), printed);
      int port = Integer.parseInt(m.group(1));
      try (CoordinatorClient c =
          CoordinatorClient.connect(
              new InetSocketAddress("127.0.0.1", port), "test", "k", Duration.ofSeconds(5))) {
        assertEquals("varys", c.welcome().scheme());
      }
      stop.countDown();
      assertEquals(0, status.get(10, TimeUnit.SECONDS));
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void badSettingsAreOneLineAndStatusTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new CoordinatorCommand(new CountDownLatch(0), Map.of())
            .run(
                new String[] {"--scheme", "lifo"},
                System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]));
    assertEquals(Command.USAGE, status);
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(e.startsWith("coflow coordinator: coflow.coordinator.scheme=lifo"), e);
    assertEquals(1, e.lines().count(), e);
  }
}
