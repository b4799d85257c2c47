package org.coflowshuffle.it.testbed;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.coflowshuffle.coordinator.cli.Command;
import org.coflowshuffle.coordinator.cli.Flags;

/**
 * {@code coflow testbed up [--hosts 6] [--profile homogeneous|rpc-fig4|custom:R1,...] [--mbit
 * 200]}, {@code coflow testbed check [--seconds 3]}, {@code coflow testbed down}: the multi-host
 * testbed on this machine (needs root). {@code up} refuses to run twice; {@code down} always cleans
 * up, even after a crash.
 */
public final class TestbedCommands {

  /** Where {@code up} records the hosts it made, for {@code check}. */
  static final Path STATE = Path.of("/tmp/coflow-testbed.json");

  private static final Testbed TESTBED = new Testbed("coflow", "10.77.0", "h");

  private TestbedCommands() {}

  /**
   * The hosts of the testbed that is up.
   *
   * @throws IllegalStateException when none is
   */
  public static List<HostLink> hostsUp() throws IOException, InterruptedException {
    if (!TESTBED.isUp() || !Files.exists(STATE)) {
      throw new IllegalStateException("no testbed is up; run 'coflow testbed up' first");
    }
    return new ObjectMapper().readValue(STATE.toFile(), new TypeReference<List<HostLink>>() {});
  }

  /**
   * A testbed for one benchmark: the one that is up when its hosts have these links, else a new one
   * that {@link #close} takes down again.
   */
  public static final class Session implements AutoCloseable {
    private final List<HostLink> hosts;
    private final boolean ours;

    private Session(List<HostLink> hosts, boolean ours) {
      this.hosts = hosts;
      this.ours = ours;
    }

    public List<HostLink> hosts() {
      return hosts;
    }

    @Override
    public void close() throws IOException, InterruptedException {
      if (ours) {
        TESTBED.down();
        Files.deleteIfExists(STATE);
      }
    }
  }

  /**
   * Starts a session on the testbed of {@code profile}.
   *
   * @throws IllegalStateException when a testbed with other links is up
   */
  public static Session session(String profile, int hosts, int mbit)
      throws IOException, InterruptedException {
    List<HostLink> links = TESTBED.hosts(TestbedProfile.rates(profile, hosts, mbit));
    if (TESTBED.isUp()) {
      if (!links.equals(hostsUp())) {
        throw new IllegalStateException(
            "a testbed with other links is up; run 'coflow testbed down' first");
      }
      return new Session(links, false);
    }
    TESTBED.up(links);
    new ObjectMapper().writeValue(STATE.toFile(), links);
    return new Session(links, true);
  }

  /** The machine's own address on the testbed's bridge. */
  public static String gateway() {
    return TESTBED.gateway();
  }

  /** The commands, under their {@code bin/coflow} names. */
  public static Map<String, Command> all() {
    Map<String, Command> m = new LinkedHashMap<>();
    m.put("testbed up", new Up());
    m.put("testbed check", new Check());
    m.put("testbed down", new Down());
    return m;
  }

  private static int fail(PrintStream err, String command, Exception e) {
    err.println("coflow testbed " + command + ": " + e.getMessage());
    return e instanceof IllegalArgumentException || e instanceof IllegalStateException
        ? Command.USAGE
        : Command.FAILURE;
  }

  static final class Up implements Command {
    @Override
    public String summary() {
      return "make hosts (network namespaces, shaped links) on this machine; needs root";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        Flags f = new Flags(args, Set.of("--hosts", "--profile", "--mbit"), Set.of());
        int hosts = f.positiveInt("--hosts", 6);
        int mbit = f.positiveInt("--mbit", 200);
        String profile = f.string("--profile", "homogeneous");
        List<HostLink> links = TESTBED.hosts(TestbedProfile.rates(profile, hosts, mbit));
        TESTBED.up(links);
        new ObjectMapper().writeValue(STATE.toFile(), links);
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
    @Override
    public String summary() {
      return "measure each host's link (one transfer per host to the next) against its rate";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        Flags f = new Flags(args, Set.of("--seconds"), Set.of());
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
    @Override
    public String summary() {
      return "remove every testbed host, link and file, whatever state they are in";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
      try {
        TESTBED.down();
        Files.deleteIfExists(STATE);
        out.println("testbed down");
        return 0;
      } catch (IOException | InterruptedException e) {
        return fail(err, "down", e);
      }
    }
  }
}
