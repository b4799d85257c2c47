/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.coflowshuffle.cli.Command;
import org.coflowshuffle.cli.CommandOptions;
import org.coflowshuffle.cli.Flags;

/**
 * {@code coflow testbed up [--hosts 6] [--profile homogeneous|rpc-fig4|custom:R1,...] [--mbit
 * 200]}, {@code coflow testbed check [--seconds 3]}, {@code coflow testbed down}: the multi-host
 * testbed on this machine (needs root). {@code up} refuses to run twice; {@code down} always cleans
 * up, even after a crash.
 */
public final class TestbedCommands {

  /** Where {@code up} records the hosts it made, for {@code check}. */
  static final Path STATE = Path.of("/tmp/coflow-testbed.json");

  /** Where a benchmark records the process that made its testbed; a hand-made one has none. */
  static final Path OWNER = Path.of("/tmp/coflow-testbed.owner");

  private static final Testbed TESTBED = new Testbed("coflow", "10.77.0", "h");

  private TestbedCommands() {}

  /**
   * The hosts of the testbed that is up.
   *
   * @throws IllegalStateException when none is
   */
  public static List<HostLink> hostsUp() throws IOException, InterruptedException {
    return hostsUp(TESTBED, STATE);
  }

  private static List<HostLink> hostsUp(Testbed testbed, Path state)
      throws IOException, InterruptedException {
    if (!testbed.isUp() || !Files.exists(state)) {
      throw new IllegalStateException("no testbed is up; run 'coflow testbed up' first");
    }
    return new ObjectMapper().readValue(state.toFile(), new TypeReference<List<HostLink>>() {});
  }

  /**
   * A testbed for one benchmark: the one that is up when its hosts have these links, else a new one
   * that {@link #close} takes down again. The run that makes it writes its process id beside the
   * hosts, so that a testbed left up by a run that was killed is known as such and replaced, not
   * mistaken for one in use.
   */
  public static final class Session implements AutoCloseable {
    private final Testbed testbed;
    private final List<HostLink> hosts;
    private final Path state;
    private final Path owner;
    private final boolean ours;

    private Session(Testbed testbed, List<HostLink> hosts, Path state, Path owner, boolean ours) {
      this.testbed = testbed;
      this.hosts = hosts;
      this.state = state;
      this.owner = owner;
      this.ours = ours;
    }

    public List<HostLink> hosts() {
      return hosts;
    }

    /** The testbed itself: its links can be cut and restored. */
    public Testbed testbed() {
      return testbed;
    }

    @Override
    public void close() throws IOException, InterruptedException {
      if (ours) {
        takeDown(testbed, state, owner);
      }
    }
  }

  /**
   * Starts a session on the testbed of {@code profile}.
   *
   * @throws IllegalStateException when a testbed with other links is up, made by hand or by a run
   *     that still runs
   */
  public static Session session(String profile, int hosts, int mbit, PrintStream err)
      throws IOException, InterruptedException {
    return session(
        TESTBED, STATE, OWNER, TESTBED.hosts(TestbedProfile.rates(profile, hosts, mbit)), err);
  }

  static Session session(
      Testbed testbed, Path state, Path owner, List<HostLink> links, PrintStream err)
      throws IOException, InterruptedException {
    if (testbed.isUp()) {
      long maker = maker(owner);
      if (maker != 0 && !runs(maker)) {
        err.println(
            "coflow: taking down the testbed that run " + maker + " left up: it no longer runs");
        takeDown(testbed, state, owner);
      } else if (links.equals(hostsUp(testbed, state))) {
        return new Session(testbed, links, state, owner, false);
      } else {
        throw new IllegalStateException(
            "a testbed with other links is up; run 'coflow testbed down' first");
      }
    }
    testbed.up(links);
    new ObjectMapper().writeValue(state.toFile(), links);
    Files.writeString(owner, Long.toString(ProcessHandle.current().pid()));
    return new Session(testbed, links, state, owner, true);
  }

  /** The process id in {@code owner}: 0 when there is none, -1 when the file holds no number. */
  private static long maker(Path owner) throws IOException {
    if (!Files.exists(owner)) {
      return 0;
    }
    try {
      return Long.parseLong(Files.readString(owner).strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static boolean runs(long pid) {
    return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static void takeDown(Testbed testbed, Path state, Path owner)
      throws IOException, InterruptedException {
    testbed.down();
    Files.deleteIfExists(state);
    Files.deleteIfExists(owner);
  }

  /** The machine's own address on the testbed's bridge. */
  public static String gateway() {
    return TESTBED.gateway();
  }

  /** The commands: {@code testbed up}, {@code testbed check}, {@code testbed down}. */
  public static List<Command> all() {
    return List.of(new Up(), new Check(), new Down());
  }

  private static int fail(PrintStream err, String command, Exception e) {
    err.println("coflow testbed " + command + ": " + e.getMessage());
    return e instanceof IllegalArgumentException || e instanceof IllegalStateException
        ? Command.USAGE
        : Command.FAILURE;
  }

  static final class Up implements Command {
    static final CommandOptions OPTIONS =
        CommandOptions.of(
                "testbed up",
                "make hosts (network namespaces, shaped links) on this machine; needs root")
            .value("--hosts", "6", "hosts")
            .value(
                "--profile",
                "homogeneous|rpc-fig4|custom:R1,...",
                "their links: equal, the RPC paper's Fig. 4 speeds, or one rate per host")
            .value("--mbit", "200", "the fastest link, Mbit/s");

    @Override
    public CommandOptions options() {
      return OPTIONS;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        Flags f = OPTIONS.parse(args);
        int hosts = f.positiveInt("--hosts", 6);
        int mbit = f.positiveInt("--mbit", 200);
        String profile = f.string("--profile", "homogeneous");
        List<HostLink> links = TESTBED.hosts(TestbedProfile.rates(profile, hosts, mbit));
        TESTBED.up(links);
        new ObjectMapper().writeValue(STATE.toFile(), links);
        Files.deleteIfExists(OWNER);
        out.printf(
            Locale.ROOT,
            "testbed up: %d hosts, profile %s; bridge %s at %s%n",
            hosts,
            profile,
            TESTBED.bridge(),
            TESTBED.gateway());
        for (HostLink h : links) {
          out.printf(
              Locale.ROOT,
              "  %-4s %-12s %-14s in %4d Mbit/s, out %4d Mbit/s%n",
              h.name(),
              h.namespace(),
              h.address(),
              h.inMbit(),
              h.outMbit());
        }
        out.println("run a command in a host: ip netns exec " + links.get(0).namespace() + " CMD");
        return 0;
      } catch (Exception e) {
        return fail(err, "up", e);
      }
    }
  }

  static final class Check implements Command {
    static final CommandOptions OPTIONS =
        CommandOptions.of(
                "testbed check",
                "measure each host's link (one transfer per host to the next) against its rate")
            .value("--seconds", "3", "how long each transfer runs");

    @Override
    public CommandOptions options() {
      return OPTIONS;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        Flags f = OPTIONS.parse(args);
        double seconds = f.positiveDouble("--seconds", 3);
        List<HostLink> hosts = hostsUp();
        out.printf(
            Locale.ROOT, "%-10s %12s %12s %8s%n", "from→to", "Mbit/s set", "achieved", "error");
        for (int i = 0; i < hosts.size() && hosts.size() > 1; i++) {
          HostLink a = hosts.get(i);
          HostLink b = hosts.get((i + 1) % hosts.size());
          int set = Math.min(a.outMbit(), b.inMbit());
          double achieved = TESTBED.probe(a, b, seconds) * 8 / 1e6;
          out.printf(
              Locale.ROOT,
              "%-10s %12d %12.1f %+7.1f%%%n",
              a.name() + "→" + b.name(),
              set,
              achieved,
              100 * (achieved / set - 1));
        }
        return 0;
      } catch (Exception e) {
        return fail(err, "check", e);
      }
    }
  }

  static final class Down implements Command {
    static final CommandOptions OPTIONS =
        CommandOptions.of(
            "testbed down", "remove every testbed host, link and file, whatever state they are in");

    @Override
    public CommandOptions options() {
      return OPTIONS;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        OPTIONS.parse(args);
        takeDown(TESTBED, STATE, OWNER);
        out.println("testbed down");
        return 0;
      } catch (IOException | InterruptedException | IllegalArgumentException e) {
        return fail(err, "down", e);
      }
    }
  }
}
