/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Several hosts on one machine: each host is a network namespace with its own address, joined by a
 * veth pair to one bridge (the switch), with {@code tc} token buckets shaping what leaves the host
 * (on its side of the pair) and what enters it (on the bridge's side). Needs root and iproute2.
 *
 * <p>Everything it creates carries its prefix, so {@link #down} finds and removes it all, even
 * after a crash that lost the state file. Names resolve inside every host's namespace through
 * {@code /etc/netns/NAMESPACE/hosts}, which {@code ip netns exec} mounts over {@code /etc/hosts}.
 */
public final class Testbed {

  private final String prefix;
  private final String subnet;
  private final String hostName;

  /**
   * @param prefix of every name it creates (at most 8 characters: Linux names are short)
   * @param subnet the first three octets of its /24, e.g. {@code 10.77.0}
   * @param hostName what host names start with, before the host's number (e.g. {@code h}); they
   *     resolve machine-wide while the testbed is up, so testbeds up at once need different ones
   */
  public Testbed(String prefix, String subnet, String hostName) {
    if (!prefix.matches("[a-z][a-z0-9]{0,7}")) {
      throw new IllegalArgumentException("testbed prefix must be 1-8 lower-case letters or digits");
    }
    this.prefix = prefix;
    this.subnet = subnet;
    this.hostName = hostName;
  }

  /** A testbed whose hosts are named like their namespaces ({@code PREFIX-h1}, ...). */
  public Testbed(String prefix, String subnet) {
    this(prefix, subnet, prefix + "-h");
  }

  String bridge() {
    return prefix + "-br";
  }

  /** The root namespace's address on the bridge: where tools outside the hosts reach them from. */
  public String gateway() {
    return subnet + ".1";
  }

  /** The hosts {@link #up} makes for these rates (Mbit/s per host, both ways). */
  public List<HostLink> hosts(int[] rates) {
    List<HostLink> hosts = new ArrayList<>();
    for (int i = 1; i <= rates.length; i++) {
      hosts.add(
          new HostLink(
              hostName + i,
              prefix + "-h" + i,
              subnet + "." + (10 + i),
              rates[i - 1],
              rates[i - 1]));
    }
    return hosts;
  }

  /** True when this testbed's bridge exists. */
  public boolean isUp() throws IOException, InterruptedException {
    ensureTools();
    return exec(List.of("ip", "link", "show", "dev", bridge()), false).status == 0;
  }

  /**
   * Installs iproute2 (Debian's package) when {@code ip} or {@code tc} is missing, as bin/coflow
   * builds what is missing on first use; says so on standard error.
   *
   * @throws IOException when they are missing and cannot be installed
   */
  static synchronized void ensureTools() throws IOException, InterruptedException {
    if (onPath("ip") && onPath("tc")) {
      return;
    }
    System.err.println("coflow: installing iproute2 (ip, tc) for the testbed");
    boolean installed =
        onPath("apt-get")
            && new ProcessBuilder(
                        "sh", "-c", "apt-get update -qq && apt-get install -y -qq iproute2")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor()
                == 0;
    if (!installed || !onPath("ip") || !onPath("tc")) {
      throw new IOException("the testbed needs iproute2 (ip, tc); install it and run as root");
    }
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return Files.isExecutable(Path.of("/usr/sbin", tool))
        || Files.isExecutable(Path.of("/sbin", tool));
  }

  /**
   * Creates the hosts and shapes their links.
   *
   * @throws IllegalStateException when this testbed is already up
   * @throws IOException naming the command that failed; what was made is removed again
   */
  public void up(List<HostLink> hosts) throws IOException, InterruptedException {
    if (isUp()) {
      throw new IllegalStateException(
          "testbed " + prefix + " is already up; run 'coflow testbed down' first");
    }
    try {
      run("ip", "link", "add", bridge(), "type", "bridge");
      run("ip", "addr", "add", gateway() + "/24", "dev", bridge());
      run("ip", "link", "set", bridge(), "up");
      StringBuilder names = new StringBuilder("127.0.0.1 localhost\n");
      names.append(gateway()).append(' ').append(prefix).append("-root\n");
      for (HostLink h : hosts) {
        names.append(h.address()).append(' ').append(h.name()).append('\n');
      }
      for (int i = 0; i < hosts.size(); i++) {
        HostLink h = hosts.get(i);
        String veth = prefix + "-v" + (i + 1);
        run("ip", "netns", "add", h.namespace());
        run(
            "ip",
            "link",
            "add",
            veth,
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            h.namespace());
        run("ip", "link", "set", veth, "master", bridge());
        run("ip", "link", "set", veth, "up");
        run("ip", "-n", h.namespace(), "addr", "add", h.address() + "/24", "dev", "eth0");
        run("ip", "-n", h.namespace(), "link", "set", "eth0", "up");
        run("ip", "-n", h.namespace(), "link", "set", "lo", "up");
        run("ip", "-n", h.namespace(), "route", "add", "default", "via", gateway());
        // Out of the host: its own side of the pair. Into the host: the bridge's side.
        shape(List.of("ip", "netns", "exec", h.namespace()), "eth0", h.outMbit());
        shape(List.of(), veth, h.inMbit());
        // The machine's own name means this host inside its namespace, so that programs asking
        // for the local host (Spark, Hadoop) find its address instead of waiting on a DNS server
        // the namespace cannot reach.
        Path etc = Path.of("/etc/netns", h.namespace());
        Files.createDirectories(etc);
        Files.writeString(etc.resolve("hosts"), names + h.address() + " " + machineName() + "\n");
      }
      // The hosts' names resolve on the machine too: YARN names its nodes by host name, and the
      // driver and ResourceManager, outside the namespaces, must reach them by that name.
      StringBuilder machine = new StringBuilder();
      for (HostLink h : hosts) {
        machine.append(h.address()).append(' ').append(h.name()).append('\n');
      }
      Files.writeString(MACHINE_HOSTS, withBlock(readHosts(), marker(), machine.toString()));
    } catch (IOException | RuntimeException e) {
      down();
      throw e;
    }
  }

  private static final Path MACHINE_HOSTS = Path.of("/etc/hosts");

  private String marker() {
    return "# " + prefix + " testbed";
  }

  private static String readHosts() throws IOException {
    return Files.exists(MACHINE_HOSTS) ? Files.readString(MACHINE_HOSTS) : "";
  }

  /**
   * A hosts file with the lines that end in {@code marker} replaced by {@code block}'s lines, each
   * marked, so that {@link #down} removes exactly what {@link #up} added.
   */
  static String withBlock(String hostsFile, String marker, String block) {
    StringBuilder out = new StringBuilder();
    String[] lines = hostsFile.split("\n", -1);
    int n = lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
    for (int i = 0; i < n; i++) {
      if (!lines[i].endsWith(marker)) {
        out.append(lines[i]).append('\n');
      }
    }
    for (String line : block.split("\n")) {
      if (!line.isBlank()) {
        out.append(line).append(' ').append(marker).append('\n');
      }
    }
    return out.toString();
  }

  private static String machineName() throws IOException, InterruptedException {
    return exec(List.of("hostname"), false).out.trim();
  }

  /** A token bucket of {@code mbit} on {@code dev}: bursts of 10 ms, at most 100 ms queued. */
  private void shape(List<String> in, String dev, int mbit)
      throws IOException, InterruptedException {
    long burstBytes = Math.max(64 * 1024, mbit * 1_000_000L / 8 / 100);
    List<String> cmd = new ArrayList<>(in);
    cmd.addAll(
        List.of(
            "tc",
            "qdisc",
            "add",
            "dev",
            dev,
            "root",
            "tbf",
            "rate",
            mbit + "mbit",
            "burst",
            Long.toString(burstBytes),
            "latency",
            "100ms"));
    run(cmd.toArray(new String[0]));
  }

  /**
   * Cuts a host off as a crash or a partition would: the switch's side of its link goes down, so
   * every packet to or from it is dropped, with no reset and no error for its peers to see. {@link
   * #reconnect} undoes it.
   */
  public void blackhole(HostLink h) throws IOException, InterruptedException {
    run("ip", "link", "set", veth(h), "down");
  }

  /** Brings a host's link back after {@link #blackhole}, shaped as before. */
  public void reconnect(HostLink h) throws IOException, InterruptedException {
    run("ip", "link", "set", veth(h), "up");
  }

  /** The switch's side of a host's link, {@code PREFIX-vN} for host {@code PREFIX-hN}. */
  private String veth(HostLink h) {
    String ns = h.namespace();
    if (!ns.startsWith(prefix + "-h")) {
      throw new IllegalArgumentException(h.name() + " is not a host of testbed " + prefix);
    }
    return prefix + "-v" + ns.substring(prefix.length() + 2);
  }

  /**
   * Removes every namespace, link and file of this testbed, whatever state it is in. Never fails on
   * what is already gone.
   */
  public void down() throws IOException, InterruptedException {
    ensureTools();
    Exec list = exec(List.of("ip", "netns", "list"), false);
    for (String line : list.out.split("\n")) {
      String ns = line.trim().split(" ")[0];
      if (ns.startsWith(prefix + "-h")) {
        exec(List.of("ip", "netns", "del", ns), false);
      }
    }
    exec(List.of("ip", "link", "del", bridge()), false);
    // A namespace that a process still holds outlives its deletion, and its pair with it.
    for (String line : exec(List.of("ip", "-o", "link", "show"), false).out.split("\n")) {
      String[] fields = line.split(":\\s+");
      if (fields.length > 1 && fields[1].startsWith(prefix + "-v")) {
        exec(List.of("ip", "link", "del", fields[1].split("@")[0]), false);
      }
    }
    String hostsFile = readHosts();
    String without = withBlock(hostsFile, marker(), "");
    if (!without.equals(hostsFile)) {
      Files.writeString(MACHINE_HOSTS, without);
    }
    Path etc = Path.of("/etc/netns");
    if (Files.isDirectory(etc)) {
      try (Stream<Path> dirs = Files.list(etc)) {
        for (Path d :
            dirs.filter(p -> p.getFileName().toString().startsWith(prefix + "-h")).toList()) {
          try (Stream<Path> files = Files.walk(d)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
              Files.deleteIfExists(f);
            }
          }
        }
      }
    }
  }

  /** The namespaces of this testbed that exist now. */
  public List<String> namespaces() throws IOException, InterruptedException {
    List<String> out = new ArrayList<>();
    for (String line : exec(List.of("ip", "netns", "list"), false).out.split("\n")) {
      String ns = line.trim().split(" ")[0];
      if (ns.startsWith(prefix + "-h")) {
        out.add(ns);
      }
    }
    return out;
  }

  /** What {@code tc} shows for a device ({@code namespace} null for the root namespace). */
  public String qdisc(String namespace, String dev) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    if (namespace != null) {
      cmd.addAll(List.of("ip", "netns", "exec", namespace));
    }
    cmd.addAll(List.of("tc", "qdisc", "show", "dev", dev));
    return exec(cmd, false).out;
  }

  /** Measures one direction between two hosts with {@link LinkProbe}: bytes per second received. */
  public double probe(HostLink from, HostLink to, double seconds)
      throws IOException, InterruptedException {
    Process listener = listener(to, 5201);
    try (BufferedReader r = reader(listener)) {
      if (!"listening".equals(r.readLine())) {
        throw new IOException("probe listener in " + to.namespace() + " did not start");
      }
      List<String> send = new ArrayList<>(List.of("ip", "netns", "exec", from.namespace()));
      send.addAll(probeCommand("send", to.address(), "5201", Double.toString(seconds)));
      run(send.toArray(new String[0]));
      String line = r.readLine();
      if (line == null || !line.startsWith("received ")) {
        throw new IOException("probe listener in " + to.namespace() + " reported nothing");
      }
      String[] p = line.split(" ");
      return Long.parseLong(p[1]) / Double.parseDouble(p[2]);
    } finally {
      if (!listener.waitFor(10, TimeUnit.SECONDS)) {
        listener.destroyForcibly();
      }
    }
  }

  /**
   * Starts a steady TCP transfer from this machine into {@code to} at {@code mbit} Mbit/s, for as
   * long as {@code seconds} or until the returned handle closes: traffic that is not a shuffle's on
   * that host's link in.
   */
  public Transfer background(HostLink to, double mbit, double seconds)
      throws IOException, InterruptedException {
    Process listener = listener(to, 5202);
    if (!"listening".equals(reader(listener).readLine())) {
      listener.destroyForcibly();
      throw new IOException("background listener in " + to.namespace() + " did not start");
    }
    Process sender =
        new ProcessBuilder(
                probeCommand(
                    "send", to.address(), "5202", Double.toString(seconds), Double.toString(mbit)))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    return () -> {
      sender.destroyForcibly();
      listener.destroyForcibly();
      sender.waitFor();
      listener.waitFor();
    };
  }

  /** A {@link LinkProbe} listening in {@code to}'s namespace; it prints a line once it listens. */
  private static Process listener(HostLink to, int port) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", to.namespace()));
    cmd.addAll(probeCommand("listen", Integer.toString(port)));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** {@link LinkProbe} in a JVM of this one's class path, with {@code args}. */
  private static List<String> probeCommand(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(LinkProbe.class.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }

  private static BufferedReader reader(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  /** A transfer running until closed. */
  public interface Transfer extends AutoCloseable {
    @Override
    void close() throws InterruptedException;
  }

  private record Exec(int status, String out) {}

  private static void run(String... cmd) throws IOException, InterruptedException {
    Exec e = exec(List.of(cmd), true);
    if (e.status != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + e.out.trim());
    }
  }

  private static Exec exec(List<String> cmd, boolean merge)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new IOException(
          cmd.get(0) + " is not available (install iproute2): " + e.getMessage(), e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Exec(p.waitFor(), out);
  }
}
