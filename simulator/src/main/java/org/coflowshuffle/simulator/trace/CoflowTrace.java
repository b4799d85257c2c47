/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace in the Coflow-Benchmark format (the public Facebook 2010 trace and its kin): line 1 is
 * {@code <ports> <coflows>}, then one coflow a line, {@code <id> <arrivalMillis> <mappers>
 * <mapperPort>... <reducers> <reducerPort>:<megabytes>...}.
 *
 * @param ports number of ports (racks) of the fabric
 * @param coflows the coflows in file order
 */
public record CoflowTrace(int ports, List<TraceCoflow> coflows) {

  public CoflowTrace {
    coflows = List.copyOf(coflows);
  }

  /** A malformed trace: the message names the file, the line and what is wrong. */
  public static final class TraceFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    TraceFormatException(String message) {
      super(message);
    }
  }

  /** Where the public Facebook trace lies on the classpath, beside its provenance. */
  static final String FACEBOOK_RESOURCE = "/coflow-benchmark/FB2010-1Hr-150-0.txt";

  /**
   * The public Facebook 2010 trace that ships with the simulator (one hour, 526 coflows, 150 racks;
   * see {@code coflow-benchmark/PROVENANCE.txt} beside it), so that no command or test needs a file
   * outside the project.
   */
  public static CoflowTrace facebook() {
    InputStream stream = CoflowTrace.class.getResourceAsStream(FACEBOOK_RESOURCE);
    if (stream == null) {
      throw new IllegalStateException(
          "the Facebook trace " + FACEBOOK_RESOURCE + " is not on the classpath");
    }
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.US_ASCII))) {
      return read(in, "FB2010-1Hr-150-0.txt");
    } catch (IOException | TraceFormatException e) {
      throw new IllegalStateException(
          "the bundled Facebook trace cannot be read: " + e.getMessage(), e);
    }
  }

  /** Reads and checks a whole trace file. */
  public static CoflowTrace read(Path file) throws IOException, TraceFormatException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
      return read(in, file.toString());
    }
  }

  /** Reads and checks a whole trace; {@code source} names it in error messages. */
  private static CoflowTrace read(BufferedReader in, String source)
      throws IOException, TraceFormatException {
    String header = in.readLine();
    if (header == null) {
      throw new TraceFormatException(source + ": empty trace");
    }
    String[] h = header.trim().split("\\s+");
    Line first = new Line(source, 1, h);
    if (h.length != 2) {
      throw first.error("expected \"<ports> <coflows>\", got \"" + header.trim() + "\"");
    }
    int ports = first.positiveInt(0, "ports");
    int count = first.positiveInt(1, "coflows");
    List<TraceCoflow> coflows = new ArrayList<>(count);
    String text;
    int number = 1;
    while ((text = in.readLine()) != null) {
      number++;
      if (text.isBlank()) {
        continue;
      }
      coflows.add(new Line(source, number, text.trim().split("\\s+")).coflow(ports));
    }
    if (coflows.size() != count) {
      throw first.error("header says " + count + " coflows but the file has " + coflows.size());
    }
    return new CoflowTrace(ports, coflows);
  }

  /** One line being parsed, for precise messages. */
  private record Line(String source, int number, String[] fields) {

    TraceFormatException error(String what) {
      return new TraceFormatException(source + ":" + number + ": " + what);
    }

    String field(int i, String name) throws TraceFormatException {
      if (i >= fields.length) {
        throw error("missing " + name + " (field " + (i + 1) + ")");
      }
      return fields[i];
    }

    int positiveInt(int i, String name) throws TraceFormatException {
      int v = integer(field(i, name), name);
      if (v <= 0) {
        throw error(name + " must be > 0, got " + v);
      }
      return v;
    }

    int integer(String text, String name) throws TraceFormatException {
      try {
        return Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw error(name + ": expected an integer, got \"" + text + "\"");
      }
    }

    int port(String text, int ports, String name) throws TraceFormatException {
      int p = integer(text, name);
      if (p < 0 || p >= ports) {
        throw error(name + " " + p + " is not a port of 0.." + (ports - 1));
      }
      return p;
    }

    TraceCoflow coflow(int ports) throws TraceFormatException {
      String id = field(0, "coflow id");
      long arrival;
      try {
        arrival = Long.parseLong(field(1, "arrival"));
      } catch (NumberFormatException e) {
        throw error("arrival: expected milliseconds, got \"" + fields[1] + "\"");
      }
      if (arrival < 0) {
        throw error("arrival must be >= 0, got " + arrival);
      }
      int i = 2;
      int mappers = positiveInt(i++, "number of mappers");
      List<Integer> mapperPorts = new ArrayList<>(mappers);
      for (int m = 0; m < mappers; m++) {
        mapperPorts.add(port(field(i++, "mapper port"), ports, "mapper port"));
      }
      int reducers = positiveInt(i++, "number of reducers");
      List<Integer> reducerPorts = new ArrayList<>(reducers);
      List<Double> megabytes = new ArrayList<>(reducers);
      for (int r = 0; r < reducers; r++) {
        String entry = field(i++, "reducer");
        int colon = entry.indexOf(':');
        if (colon < 0) {
          throw error("reducer \"" + entry + "\": expected <port>:<megabytes>");
        }
        reducerPorts.add(port(entry.substring(0, colon), ports, "reducer port"));
        double mb;
        try {
          mb = Double.parseDouble(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
          mb = Double.NaN;
        }
        if (!(mb >= 0) || Double.isInfinite(mb)) {
          throw error("reducer \"" + entry + "\": megabytes must be a finite number >= 0");
        }
        megabytes.add(mb);
      }
      if (i != fields.length) {
        throw error((fields.length - i) + " unexpected fields after the reducers");
      }
      return new TraceCoflow(id, arrival, mapperPorts, reducerPorts, megabytes);
    }
  }
}
