/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Coflows tab's content as HTML, from the coflows alone (no Spark types, so it is tested as
 * is): a table with one row per coflow, a timeline of them all, and a page per coflow. Every text
 * that came from the application (host names, stage names) is escaped.
 */
final class CoflowsHtml {

  private static final int WIDTH = 960;
  private static final int BAR = 16;

  private CoflowsHtml() {}

  /** The tab's page: the coflows of the application by arrival, as a timeline and a table. */
  static String list(List<CoflowCompleted> coflows, String basePath) {
    if (coflows.isEmpty()) {
      return "<p>No coflow has completed yet: a coflow is a stage that reads a shuffle.</p>";
    }
    List<CoflowCompleted> byArrival =
        coflows.stream().sorted(Comparator.comparingLong(CoflowCompleted::arrivalMillis)).toList();
    long start = byArrival.get(0).arrivalMillis();
    StringBuilder h = new StringBuilder();
    h.append(
        String.format(
            Locale.ROOT,
            "<p>%d coflows, average CCT %.2f s. A coflow is a stage that reads shuffles: it arrives"
                + " when Spark submits it and completes when the stage does.</p>",
            coflows.size(),
            coflows.stream().mapToDouble(CoflowCompleted::cctSeconds).average().orElse(0)));
    h.append("<h4>Timeline</h4>").append(timeline(byArrival, start));
    h.append("<h4>Coflows</h4>")
        .append("<table id=\"coflows\" class=\"table table-bordered table-sm table-striped\">")
        .append("<thead><tr><th>Stage</th><th>Shuffles</th><th>Arrival (s)</th><th>CCT (s)</th>")
        .append("<th>Shuffle read (MB)</th><th>Reduce tasks</th><th>Hosts</th>")
        .append("<th>Ran where placed</th><th>Scheme</th></tr></thead><tbody>");
    for (CoflowCompleted c : byArrival) {
      h.append(
          String.format(
              Locale.ROOT,
              "<tr data-stage=\"%d\"><td><a href=\"%s/coflows/coflow/?id=%s\">%d%s</a></td>"
                  + "<td>%s</td><td>%.1f</td><td class=\"cct\">%.2f</td><td>%.1f</td>"
                  + "<td>%d</td><td class=\"hosts\">%s</td><td class=\"placed\">%s</td>"
                  + "<td>%s</td></tr>",
              c.stageId(),
              escape(basePath),
              escape(c.id()),
              c.stageId(),
              c.stageAttempt() > 0 ? " (attempt " + c.stageAttempt() + ")" : "",
              escape(c.shuffleIds().toString()),
              (c.arrivalMillis() - start) / 1000.0,
              c.cctSeconds(),
              c.bytesRead() / 1e6,
              c.tasks(),
              escape(hosts(c.ranOn())),
              placed(c),
              c.scheme().isEmpty() ? "Spark's placement" : escape(c.scheme())));
    }
    return h.append("</tbody></table>").toString();
  }

  /** One coflow's page: where its reduce tasks were placed and where they ran, host by host. */
  static String one(CoflowCompleted c) {
    StringBuilder h = new StringBuilder();
    h.append(
        String.format(
            Locale.ROOT,
            "<p id=\"coflow\" data-stage=\"%d\">Stage %d (%s) read shuffles %s: CCT %.2f s%s,"
                + " %.1f MB, %d reduce tasks, %s, %s.</p>",
            c.stageId(),
            c.stageId(),
            escape(c.name()),
            escape(c.shuffleIds().toString()),
            c.cctSeconds(),
            Double.isNaN(c.fetchSeconds())
                ? ""
                : String.format(
                    Locale.ROOT, " (its bytes over the network in after %.2f s)", c.fetchSeconds()),
            c.bytesRead() / 1e6,
            c.tasks(),
            placed(c) + " ran where placed",
            c.scheme().isEmpty() ? "Spark's placement" : "placed by " + escape(c.scheme())));
    h.append("<table id=\"hosts\" class=\"table table-bordered table-sm table-striped\">")
        .append("<thead><tr><th>Host</th><th>Reduce tasks placed</th><th>Reduce tasks ran</th>")
        .append("</tr></thead><tbody>");
    TreeSet<String> all = new TreeSet<>(c.ranOn().keySet());
    all.addAll(c.placedOn().keySet());
    for (String host : all) {
      h.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%s</td><td>%d</td></tr>",
              escape(host),
              c.scheme().isEmpty() ? "-" : "" + c.placedOn().getOrDefault(host, 0),
              c.ranOn().getOrDefault(host, 0)));
    }
    h.append("</tbody></table>").append("<h4>Rates planned and delivered</h4>");
    return h.append(rates(c)).toString();
  }

  /**
   * Per machine the coflow's flows crossed, its rate in and out over the coflow's life: planned
   * (dashed, what the coordinator's decisions gave its flows) against delivered (solid, what they
   * fetched), on one scale for all machines.
   */
  private static String rates(CoflowCompleted c) {
    if (c.rates().isEmpty()) {
      return "<p>No rates were sampled: Spark placed this coflow, or a standalone coordinator"
          + " paced it (its own status page shows them).</p>";
    }
    Map<String, List<double[]>> byHost = new TreeMap<>(); // t, planned in/out, delivered in/out
    Map<String, HostRate> before = new HashMap<>();
    double top = 1;
    for (HostRate r : c.rates()) {
      HostRate b = before.put(r.host(), r);
      long from = b == null ? c.arrivalMillis() : b.atMillis();
      double span = Math.max(1, r.atMillis() - from) / 1000.0;
      double[] p = {
        (r.atMillis() - c.arrivalMillis()) / 1000.0,
        r.plannedIn(),
        r.plannedOut(),
        Math.max(0, r.deliveredIn() - (b == null ? 0 : b.deliveredIn())) / span,
        Math.max(0, r.deliveredOut() - (b == null ? 0 : b.deliveredOut())) / span
      };
      byHost.computeIfAbsent(r.host(), x -> new ArrayList<>()).add(p);
      for (int i = 1; i < p.length; i++) {
        top = Math.max(top, p[i]);
      }
    }
    double end = Math.max(0.001, c.cctSeconds());
    StringBuilder h = new StringBuilder();
    h.append(
        String.format(
            Locale.ROOT,
            "<p>MB/s, 0 to %.2f, over the coflow's %.2f s: <span style=\"color:%s\">- - planned</span>,"
                + " <span style=\"color:%s\">&mdash; delivered</span>.</p>",
            top / 1e6,
            end,
            PLANNED,
            DELIVERED));
    h.append("<table id=\"rates\" class=\"table table-bordered table-sm\">")
        .append("<thead><tr><th>Host</th><th>In</th><th>Out</th></tr></thead><tbody>");
    for (Map.Entry<String, List<double[]>> e : byHost.entrySet()) {
      h.append("<tr data-host=\"")
          .append(escape(e.getKey()))
          .append("\"><td>")
          .append(escape(e.getKey()))
          .append("</td><td>")
          .append(chart(e.getValue(), 1, end, top))
          .append("</td><td>")
          .append(chart(e.getValue(), 2, end, top))
          .append("</td></tr>");
    }
    return h.append("</tbody></table>").toString();
  }

  private static final String PLANNED = "#3f7fbf";
  private static final String DELIVERED = "#e08a1e";

  /** One direction's planned ({@code at}) and delivered ({@code at + 2}) rates as steps. */
  private static String chart(List<double[]> points, int at, double end, double top) {
    int w = 360;
    int hgt = 60;
    StringBuilder planned = new StringBuilder();
    StringBuilder delivered = new StringBuilder();
    double x0 = 0;
    for (double[] p : points) {
      double x1 = w * Math.min(1, p[0] / end);
      step(planned, x0, x1, hgt - hgt * p[at] / top);
      step(delivered, x0, x1, hgt - hgt * p[at + 2] / top);
      x0 = x1;
    }
    return String.format(
        Locale.ROOT,
        "<svg class=\"rate\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>"
            + "<polyline fill=\"none\" stroke=\"%s\" stroke-dasharray=\"4 3\" points=\"%s\"/>"
            + "<polyline fill=\"none\" stroke=\"%s\" points=\"%s\"/></svg>",
        w,
        hgt + 1,
        hgt,
        w,
        hgt,
        PLANNED,
        planned,
        DELIVERED,
        delivered);
  }

  /** A horizontal step from {@code x0} to {@code x1} at height {@code y}. */
  private static void step(StringBuilder points, double x0, double x1, double y) {
    points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x0, y, x1, y));
  }

  /** Bars from arrival to completion on one time axis, one per coflow: SRTF at work. */
  private static String timeline(List<CoflowCompleted> byArrival, long start) {
    long end = byArrival.stream().mapToLong(CoflowCompleted::completionMillis).max().orElse(start);
    double span = Math.max(1, end - start);
    int height = byArrival.size() * (BAR + 4) + 24;
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg id=\"timeline\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
            WIDTH + 80,
            height));
    int y = 0;
    for (CoflowCompleted c : byArrival) {
      double x = 60 + WIDTH * (c.arrivalMillis() - start) / span;
      double w = Math.max(1, WIDTH * (c.completionMillis() - c.arrivalMillis()) / span);
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"0\" y=\"%d\" font-size=\"12\">stage %d</text>"
                  + "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                  + "<title>stage %d: %.2f s</title></rect>",
              y + BAR - 3,
              c.stageId(),
              x,
              y,
              w,
              BAR,
              c.scheme().isEmpty() ? "#9e9e9e" : "#3f7fbf",
              c.stageId(),
              c.cctSeconds()));
      y += BAR + 4;
    }
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"60\" y=\"%d\" font-size=\"12\">0 s</text>"
                + "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%.1f s</text>",
            y + 14,
            WIDTH + 60,
            y + 14,
            span / 1000.0));
    return s.append("</svg>").toString();
  }

  private static String placed(CoflowCompleted c) {
    return c.scheme().isEmpty() ? "-" : c.ranWherePlaced() + " of " + c.tasks();
  }

  /** {@code h1 ×2, h3 ×1}. */
  static String hosts(Map<String, Integer> byHost) {
    StringBuilder s = new StringBuilder();
    byHost.forEach(
        (h, n) -> s.append(s.length() == 0 ? "" : ", ").append(h).append(" ×").append(n));
    return s.toString();
  }

  static String escape(String text) {
    StringBuilder s = new StringBuilder(text.length());
    for (char ch : text.toCharArray()) {
      switch (ch) {
        case '<' -> s.append("&lt;");
        case '>' -> s.append("&gt;");
        case '&' -> s.append("&amp;");
        case '"' -> s.append("&quot;");
        case '\'' -> s.append("&#39;");
        default -> s.append(ch);
      }
    }
    return s.toString();
  }
}
