/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The operator's view over HTTP: {@code /status} (JSON), {@code /metrics} (Prometheus text) and
 * {@code /} (an HTML page of the status that reloads itself every 2 s). Read-only, but it names the
 * applications and executors a fetch needs, so it listens on loopback unless told otherwise and can
 * require a bearer token.
 */
final class StatusHttpServer implements AutoCloseable {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final CoordinatorServer coordinator;
  private final byte[] authorization; // the Authorization header required; null: none
  private final HttpServer server;
  private final ExecutorService threads =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "coflow-http");
            t.setDaemon(true);
            return t;
          });

  /** {@code token}: the bearer token requests must carry; null for none. */
  StatusHttpServer(CoordinatorServer coordinator, InetSocketAddress address, String token)
      throws IOException {
    this.coordinator = coordinator;
    this.authorization =
        token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    server = HttpServer.create(address, 16);
    server.createContext("/", this::serve);
    server.setExecutor(threads);
    server.start();
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  private void serve(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      if (!x.getRequestMethod().equals("GET")) {
        reply(x, 405, "text/plain", "only GET\n");
        return;
      }
      if (!authorized(x)) {
        x.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        reply(x, 401, "text/plain", "this coordinator's pages need its httpToken\n");
        return;
      }
      switch (path) {
        case "/status" -> reply(x, 200, "application/json", json(coordinator.status()));
        case "/metrics" ->
            reply(x, 200, PrometheusTextFormatWriter.CONTENT_TYPE, coordinator.metricsText());
        case "/" -> reply(x, 200, "text/html", page(coordinator.status()));
        default -> reply(x, 404, "text/plain", "no such page: " + path + "\n");
      }
    } catch (RuntimeException e) {
      reply(x, 503, "text/plain", "status unavailable: " + e.getMessage() + "\n");
    }
  }

  /** Whether the request carries the token, compared in time independent of where it differs. */
  private boolean authorized(HttpExchange x) {
    if (authorization == null) {
      return true;
    }
    String given = x.getRequestHeaders().getFirst("Authorization");
    return given != null
        && MessageDigest.isEqual(authorization, given.getBytes(StandardCharsets.UTF_8));
  }

  private static String json(Status s) {
    try {
      return JSON.writeValueAsString(s) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the status as JSON", e);
    }
  }

  /** The page: one table row per coflow, largest remaining last, plain HTML with no scripts. */
  static String page(Status s) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"refresh\" content=\"2\">")
        .append("<title>coflow coordinator</title><style>")
        .append("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}")
        .append("th{background:#eee}td.l{text-align:left}")
        .append(".bar{background:#4a90d9;height:10px}")
        .append("</style></head><body>")
        .append("<h1>coflow coordinator</h1><p>scheme <b>")
        .append(escape(s.scheme()))
        .append("</b> · decision epoch ")
        .append(s.epoch())
        .append(" · ")
        .append(s.applications().size())
        .append(" applications · ")
        .append(s.rateRequests())
        .append(" paced flows</p>");
    b.append("<h2>Coflows fetching</h2>");
    if (s.coflows().isEmpty()) {
      b.append("<p>none</p>");
    } else {
      b.append(
          "<table><tr><th>application</th><th>shuffles</th><th>placed at (s)</th>"
              + "<th>network MB</th><th>left MB</th><th>done</th><th>rate MB/s</th>"
              + "<th>reducers fetching</th><th>reducers on</th></tr>");
      for (Status.CoflowView c : s.coflows()) {
        double done = c.networkBytes() <= 0 ? 1 : 1 - c.remainingBytes() / c.networkBytes();
        b.append("<tr><td class=\"l\">")
            .append(escape(c.app()))
            .append("</td><td>")
            .append(c.shuffles())
            .append("</td><td>")
            .append(String.format(Locale.ROOT, "%.1f", c.arrival()))
            .append("</td><td>")
            .append(String.format(Locale.ROOT, "%.1f", c.networkBytes() / 1e6))
            .append("</td><td>")
            .append(String.format(Locale.ROOT, "%.1f", c.remainingBytes() / 1e6))
            .append("</td><td><div class=\"bar\" style=\"width:")
            .append(Math.round(done * 100))
            .append("px\"></div></td><td>")
            .append(String.format(Locale.ROOT, "%.2f", c.bytesPerSecond() / 1e6))
            .append("</td><td>")
            .append(c.fetchingReducers())
            .append("</td><td class=\"l\">")
            .append(escape(String.join(" ", c.reducerExecutors())))
            .append("</td></tr>");
      }
      b.append("</table>");
    }
    b.append("<h2>Applications</h2><table><tr><th>application</th><th>shuffles</th></tr>");
    s.applications()
        .forEach(
            (app, n) ->
                b.append("<tr><td class=\"l\">")
                    .append(escape(app))
                    .append("</td><td>")
                    .append(n)
                    .append("</td></tr>"));
    b.append("</table><p><a href=\"/status\">/status</a> · <a href=\"/metrics\">/metrics</a></p>");
    return b.append("</body></html>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static void reply(HttpExchange x, int code, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    x.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
