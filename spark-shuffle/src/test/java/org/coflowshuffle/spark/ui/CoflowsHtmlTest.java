/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CoflowsHtmlTest {

  private static final CoflowCompleted PLACED =
      new CoflowCompleted(
          3,
          0,
          "sortByKey",
          List.of(1),
          "rpc",
          10_000,
          12_500,
          11_750,
          6_000_000,
          Map.of("h1", 2, "h3", 1),
          Map.of("h1", 2, "h2", 1),
          3,
          2,
          List.of(
              new HostRate(11_000, "h1", 2e6, 0, 1_000_000, 0),
              new HostRate(11_000, "h2", 0, 2e6, 0, 1_000_000),
              new HostRate(12_500, "h1", 2e6, 0, 4_000_000, 0),
              new HostRate(12_500, "h2", 0, 0, 0, 4_000_000)));

  private static final CoflowCompleted KEPT =
      new CoflowCompleted(
          5,
          1,
          "<script>",
          List.of(2, 4),
          "",
          11_000,
          20_000,
          0,
          0,
          Map.of("h2", 1),
          Map.of(),
          1,
          0,
          List.of());

  @Test
  void eachCoflowIsARowWithItsCctAndHostsInArrivalOrder() {
    String html = CoflowsHtml.list(List.of(KEPT, PLACED), "/proxy/app");
    Matcher rows = Pattern.compile("<tr data-stage=\"(\\d+)\">").matcher(html);
    assertTrue(rows.find());
    assertEquals("3", rows.group(1), "the earlier arrival first");
    assertTrue(rows.find());
    assertEquals("5", rows.group(1));
    assertFalse(rows.find());
    assertTrue(html.contains("<td class=\"cct\">2.50</td>"), html);
    assertTrue(html.contains("<td class=\"hosts\">h1 ×2, h3 ×1</td>"), html);
    assertTrue(html.contains("<td class=\"placed\">2 of 3</td>"), html);
    assertTrue(html.contains("<td class=\"placed\">-</td>"), "Spark's placement kept");
    assertTrue(html.contains("href=\"/proxy/app/coflows/coflow/?id=5.1\""), html);
    assertTrue(html.contains("average CCT 5.75 s"), html);
    assertEquals(2, html.split("<rect ").length - 1, "a bar per coflow on the timeline");
  }

  @Test
  void aCoflowsPageSetsWherePlacedAgainstWhereRanAndEscapesNames() {
    String html = CoflowsHtml.one(KEPT);
    assertTrue(html.contains("&lt;script&gt;"), html);
    assertFalse(html.contains("<script>"), html);
    assertFalse(html.contains("over the network"), "not known where Spark placed: " + html);
    String placed = CoflowsHtml.one(PLACED);
    assertTrue(placed.contains("CCT 2.50 s (its bytes over the network in after 1.75 s)"), placed);
    assertTrue(placed.contains("<tr><td>h2</td><td>1</td><td>0</td></tr>"), placed);
    assertTrue(placed.contains("<tr><td>h3</td><td>0</td><td>1</td></tr>"), placed);
  }

  @Test
  void aCoflowsPageDrawsEachHostsPlannedAgainstDeliveredRateOverTime() {
    String html = CoflowsHtml.one(PLACED);
    // h1 in, over 2.5 s on 360 px, 2 MB/s at the top of 60 px: 1 MB/s delivered in the first
    // second (1 MB since arrival), then 2 MB/s (3 MB in 1.5 s); planned 2 MB/s throughout.
    String h1 =
        html.substring(
            html.indexOf("<tr data-host=\"h1\">"),
            html.indexOf("</tr>", html.indexOf("<tr data-host=\"h1\">")));
    assertTrue(h1.contains("points=\"0.0,30.0 144.0,30.0 144.0,0.0 360.0,0.0 \""), h1);
    assertTrue(h1.contains("points=\"0.0,0.0 144.0,0.0 144.0,0.0 360.0,0.0 \""), h1);
    assertTrue(html.contains("<tr data-host=\"h2\">"), html);
    assertTrue(CoflowsHtml.one(KEPT).contains("No rates were sampled"));
  }

  @Test
  void noCoflowYetSaysSo() {
    assertTrue(CoflowsHtml.list(List.of(), "").contains("No coflow has completed yet"));
  }
}
