/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A page as a browser renders it: Chromium without a display ({@code --headless}), for the DOM
 * after the page's scripts ran and for screenshots. Where no Chromium is installed and the tests
 * run as root on Debian or Ubuntu (as CI does), the distribution's {@code chromium} package is
 * installed first.
 */
final class HeadlessChromium {

  private static final List<String> NAMES =
      List.of("chromium", "chromium-browser", "google-chrome", "chromium-headless-shell");

  private final Path binary;
  private final Path profile;

  private HeadlessChromium(Path binary, Path profile) {
    this.binary = binary;
    this.profile = profile;
  }

  /** Chromium from the path, installed with apt-get where it is missing and that can be done. */
  static HeadlessChromium find(Path work) throws IOException, InterruptedException {
    Path found = onPath();
    if (found == null && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      Path log = work.resolve("apt-get-chromium.log");
      System.err.println("installing Chromium with apt-get for the browser checks; see " + log);
      if (run(List.of("apt-get", "install", "-y", "--no-install-recommends", "chromium"), log)
          != 0) {
        run(List.of("apt-get", "update"), log);
        run(List.of("apt-get", "install", "-y", "--no-install-recommends", "chromium"), log);
      }
      found = onPath();
    }
    if (found == null) {
      throw new AssertionError(
          "no Chromium on the path, and it could not be installed (apt-get install chromium, as"
              + " root): the browser checks need one");
    }
    return new HeadlessChromium(found, Files.createTempDirectory(work, "chromium-profile"));
  }

  /** The page's DOM once loaded and its scripts ran, as HTML. */
  String dom(String url) throws IOException, InterruptedException {
    Path out = Files.createTempFile(profile, "dom", ".html");
    int status = run(command(List.of("--dump-dom", url)), out);
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    if (status != 0 || !dom.contains("<html")) {
      throw new AssertionError("Chromium could not render " + url + " (status " + status + ")");
    }
    return dom;
  }

  /** A {@code width} × {@code height} screenshot of the page, as PNG. */
  void screenshot(String url, Path png, int width, int height)
      throws IOException, InterruptedException {
    Files.createDirectories(png.getParent());
    Files.deleteIfExists(png);
    Path log = Files.createTempFile(profile, "screenshot", ".log");
    int status =
        run(
            command(
                List.of(
                    "--hide-scrollbars",
                    "--window-size=" + width + "," + height,
                    "--screenshot=" + png.toAbsolutePath(),
                    url)),
            log);
    if (status != 0 || !Files.exists(png) || Files.size(png) == 0) {
      throw new AssertionError("no screenshot of " + url + "; see " + log);
    }
  }

  private List<String> command(List<String> more) {
    List<String> c = new ArrayList<>();
    c.add(binary.toString());
    c.add("--headless");
    c.add("--no-sandbox"); // the tests run as root, where Chromium's sandbox cannot
    c.add("--disable-gpu");
    c.add("--disable-dev-shm-usage");
    c.add("--no-first-run");
    c.add("--user-data-dir=" + profile.toAbsolutePath());
    c.add("--virtual-time-budget=5000"); // lets the page's scripts run before the DOM is read
    c.addAll(more);
    return c;
  }

  private static Path onPath() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      for (String name : NAMES) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }

  /**
   * Runs {@code command} to its end (at most 5 minutes), its output in {@code out}; its errors too
   * for apt-get (Chromium's are noise about the desktop bus it runs without).
   */
  private static int run(List<String> command, Path out) throws IOException, InterruptedException {
    ProcessBuilder b = new ProcessBuilder(command);
    boolean apt = command.get(0).equals("apt-get");
    b.environment().put("DEBIAN_FRONTEND", "noninteractive");
    b.redirectOutput(
        apt
            ? ProcessBuilder.Redirect.appendTo(out.toFile())
            : ProcessBuilder.Redirect.to(out.toFile()));
    if (apt) {
      b.redirectErrorStream(true);
    } else {
      b.redirectError(ProcessBuilder.Redirect.DISCARD);
    }
    Process p = b.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not end in 5 minutes");
    }
    return p.exitValue();
  }
}
