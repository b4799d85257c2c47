/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.spark.ui.SparkUI;
import org.apache.spark.ui.SparkUITab;
import org.apache.spark.ui.UIUtils;
import org.apache.spark.ui.WebUIPage;
import org.apache.spark.util.kvstore.KVStore;
import scala.collection.immutable.Seq;
import scala.xml.Node;
import scala.xml.Unparsed;

/**
 * The "Coflows" tab of an application's Spark UI, live in the driver and in the History Server
 * alike, under {@code /coflows/}: the coflows that completed, from Spark's status store ({@link
 * CoflowStoreListener}), and a page per coflow under {@code /coflows/coflow/?id=STAGE.ATTEMPT}. It
 * is served by the UI's own server, behind the same filters and access control as its other tabs.
 */
public final class CoflowsTab extends SparkUITab {

  private final KVStore store;

  public CoflowsTab(SparkUI ui, KVStore store) {
    super(ui, "coflows");
    this.store = store;
    attachPage(new Page(this, "", this::list));
    attachPage(new Page(this, "coflow", this::one));
  }

  @Override
  public String name() {
    return "Coflows";
  }

  /** The coflows in the store, in no particular order. */
  static List<CoflowCompleted> all(KVStore store) {
    List<CoflowCompleted> out = new ArrayList<>();
    try {
      for (CoflowCompleted c : store.view(CoflowCompleted.class)) {
        out.add(c);
      }
    } catch (Exception e) {
      throw new IllegalStateException("coflow: the status store cannot be read: " + e, e);
    }
    return out;
  }

  /** The tab's page: title and content. */
  private String[] list(HttpServletRequest request) {
    String base = UIUtils.prependBaseUri(request, basePath(), "");
    return new String[] {"Coflows", CoflowsHtml.list(all(store), base)};
  }

  /** A coflow's page, {@code ?id=STAGE.ATTEMPT}: title and content. */
  private String[] one(HttpServletRequest request) {
    String id = request.getParameter("id");
    CoflowCompleted c = null;
    if (id != null) {
      try {
        c = store.read(CoflowCompleted.class, id);
      } catch (NoSuchElementException e) {
        c = null;
      } catch (Exception e) {
        throw new IllegalStateException("coflow: the status store cannot be read: " + e, e);
      }
    }
    return c == null
        ? new String[] {"Coflow", "<p>No such coflow.</p>"}
        : new String[] {"Coflow of stage " + c.stageId(), CoflowsHtml.one(c)};
  }

  /** A page of the tab: its title and HTML in Spark's page frame. */
  private static final class Page extends WebUIPage {
    private final CoflowsTab tab;
    private final Function<HttpServletRequest, String[]> titleAndHtml;

    Page(CoflowsTab tab, String prefix, Function<HttpServletRequest, String[]> titleAndHtml) {
      super(prefix);
      this.tab = tab;
      this.titleAndHtml = titleAndHtml;
    }

    @Override
    public Seq<Node> render(HttpServletRequest request) {
      String[] page = titleAndHtml.apply(request);
      Seq<Node> content = new Unparsed(page[1]);
      return UIUtils.headerSparkPage(
          request,
          page[0],
          () -> content,
          tab,
          UIUtils.headerSparkPage$default$5(),
          UIUtils.headerSparkPage$default$6(),
          UIUtils.headerSparkPage$default$7());
    }
  }
}
