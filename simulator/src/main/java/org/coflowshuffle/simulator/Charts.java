/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.simulator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The simulator's pictures, as PNG: the CDF of CCTs per scheme (the paper's Fig. 5(b)), average CCT
 * against a swept parameter, and, per scheme, the sorted per-coflow ratio of its CCT to the
 * reference scheme's (its Fig. 5(c), on a log axis so that 2x faster and 2x slower look alike).
 */
public final class Charts {

  private Charts() {}

  /** Writes {@code cct-cdf.png} and {@code ratio-vs-REFERENCE.png} into {@code dir}. */
  public static void write(
      Path dir, Collection<SchemeReport> reports, String reference, String title)
      throws IOException {
    XYChart cdf =
        new XYChartBuilder()
            .width(800)
            .height(500)
            .title("CCT distribution — " + title)
            .xAxisTitle("coflow completion time (s, log scale)")
            .yAxisTitle("fraction of coflows")
            .build();
    cdf.getStyler().setXAxisLogarithmic(true);
    // fractions span exactly [0, 1]; see offGrid for the ticks
    cdf.getStyler().setYAxisMin(0.0).setYAxisMax(1.0).setYAxisDecimalPattern("0.0");
    XYChart change =
        new XYChartBuilder()
            .width(800)
            .height(500)
            .title("Per-coflow CCT against " + reference + " — " + title)
            .xAxisTitle("fraction of coflows")
            .yAxisTitle("CCT / CCT of " + reference + " (log scale; below 1 = faster)")
            .build();
    change.getStyler().setYAxisLogarithmic(true);
    change.getStyler().setXAxisMin(0.0).setXAxisMax(1.0).setXAxisDecimalPattern("0.0");
    boolean anyChange = false;
    double firstCct = Double.POSITIVE_INFINITY;
    double firstChange = Double.POSITIVE_INFINITY;
    for (SchemeReport r : reports) {
      double[] cct = Arrays.stream(r.ccts()).map(v -> Math.max(v, 1e-6)).sorted().toArray();
      if (cct.length > 0) {
        line(cdf.addSeries(r.scheme(), cct, fractions(cct.length)));
        firstCct = Math.min(firstCct, cct[0]);
      }
      double[] delta = r.changesAgainstReference();
      if (delta.length > 0) {
        double[] sorted = Arrays.stream(delta).map(d -> Math.max(1 - d, 1e-6)).sorted().toArray();
        line(change.addSeries(r.scheme(), fractions(sorted.length), sorted));
        firstChange = Math.min(firstChange, sorted[0]);
        anyChange = true;
      }
    }
    if (firstCct < Double.POSITIVE_INFINITY) {
      offGrid(cdf, firstCct, 0.001);
    }
    BitmapEncoder.saveBitmap(
        cdf, dir.resolve("cct-cdf.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    if (anyChange) {
      offGrid(change, 0.001, firstChange);
      BitmapEncoder.saveBitmap(
          change,
          dir.resolve("ratio-vs-" + reference + ".png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
  }

  /**
   * Writes {@code cct-vs-PARAMETER.png}: each scheme's average CCT against the swept parameter (the
   * paper's Figs. 5(a), 6(a) and 7(a)), on a log axis since the schemes differ by orders of
   * magnitude.
   */
  public static void writeSweep(
      Path dir,
      String parameter,
      double[] values,
      List<Map<String, SchemeReport>> points,
      String title)
      throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(800)
            .height(500)
            .title("Average CCT against " + parameter + " — " + title)
            .xAxisTitle(parameter)
            .yAxisTitle("average CCT (s, log scale)")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    for (String scheme : points.get(0).keySet()) {
      double[] y = new double[values.length];
      for (int i = 0; i < values.length; i++) {
        y[i] = Math.max(points.get(i).get(scheme).cct().mean(), 1e-6);
      }
      chart.addSeries(scheme, values, y);
    }
    BitmapEncoder.saveBitmap(
        chart,
        dir.resolve("cct-vs-" + parameter + ".png").toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  /**
   * XChart takes an axis's ticks from the data when its values are evenly spaced, as fractions i/n
   * are: with n = 526 it put the label "1.0" at 500/526, so the lines ran past it. An invisible
   * point with a fraction off that grid (0.001) makes it choose round ticks instead.
   */
  private static void offGrid(XYChart chart, double x, double y) {
    XYSeries point = chart.addSeries(" ", new double[] {x}, new double[] {y});
    point.setMarker(SeriesMarkers.NONE);
    point.setShowInLegend(false);
  }

  private static double[] fractions(int n) {
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      y[i] = (i + 1.0) / n;
    }
    return y;
  }

  private static void line(XYSeries series) {
    series.setMarker(SeriesMarkers.NONE);
  }
}
