/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.ui;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
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

  public CoflowsTab(SparkUI ui, KVStore store) {
    super(ui, "coflows");
    attachPage(new ListPage(this, store));
    attachPage(new OnePage(this, store));
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

  private static Seq<Node> page(
      HttpServletRequest request, String title, String html, SparkUITab tab) {
    Seq<Node> content = new Unparsed(html);
    return UIUtils.headerSparkPage(
        request,
        title,
        () -> content,
        tab,
        UIUtils.headerSparkPage$default$5(),
        UIUtils.headerSparkPage$default$6(),
        UIUtils.headerSparkPage$default$7());
  }

  private static final class ListPage extends WebUIPage {
    private final CoflowsTab tab;
    private final KVStore store;

    ListPage(CoflowsTab tab, KVStore store) {
      super("");
      this.tab = tab;
      this.store = store;
    }

    @Override
    public Seq<Node> render(HttpServletRequest request) {
      String base = UIUtils.prependBaseUri(request, tab.basePath(), "");
      return page(request, "Coflows", CoflowsHtml.list(all(store), base), tab);
    }
  }

  private static final class OnePage extends WebUIPage {
    private final CoflowsTab tab;
    private final KVStore store;

    OnePage(CoflowsTab tab, KVStore store) {
      super("coflow");
      this.tab = tab;
      this.store = store;
    }

    @Override
    public Seq<Node> render(HttpServletRequest request) {
      String id = request.getParameter("id");
      CoflowCompleted c = null;
      if (id != null) {
        try {
          c = store.read(CoflowCompleted.class, id);
        } catch (java.util.NoSuchElementException e) {
          c = null;
        } catch (Exception e) {
          throw new IllegalStateException("coflow: the status store cannot be read: " + e, e);
        }
      }
      return c == null
          ? page(request, "Coflow", "<p>No such coflow.</p>", tab)
          : page(request, "Coflow of stage " + c.stageId(), CoflowsHtml.one(c), tab);
    }
  }
}
