/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Renders declared keys as the Markdown of {@code docs/configuration.md}, so the reference cannot
 * drift from the code. Each module owns one section of that file, between {@code <!-- begin ID -->}
 * and {@code <!-- end ID -->}, and a test of the module compares it with {@link #section}.
 */
public final class ConfigDocs {

  private ConfigDocs() {}

  /** One titled section: a sentence of context, then a table of the keys. */
  public static String section(String title, String intro, List<ConfigKey<?>> keys) {
    StringBuilder b = new StringBuilder();
    b.append("## ").append(title).append("\n\n").append(intro).append("\n\n");
    b.append("| Key | Type | Default | Since | Meaning |\n");
    b.append("|---|---|---|---|---|\n");
    for (ConfigKey<?> k : keys) {
      b.append("| `")
          .append(k.name())
          .append("` | ")
          .append(k.type())
          .append(" | ")
          .append(
              k.defaultValue() == null
                  ? "(unset)"
                  : k.defaultValue().isEmpty() ? "(empty)" : "`" + k.defaultValue() + "`")
          .append(" | ")
          .append(k.since())
          .append(" | ")
          .append(k.doc().replace("|", "\\|").replace("\n", " "))
          .append(" |\n");
    }
    return b.append('\n').toString();
  }

  /**
   * The text between the markers of section {@code id} in {@code doc}.
   *
   * @throws IllegalArgumentException when the markers are missing
   */
  public static String between(String doc, String id) {
    String begin = "<!-- begin " + id + " -->\n";
    String end = "<!-- end " + id + " -->";
    int a = doc.indexOf(begin);
    int b = doc.indexOf(end);
    if (a < 0 || b < a) {
      throw new IllegalArgumentException("no section " + id + " in the document");
    }
    return doc.substring(a + begin.length(), b);
  }

  /** {@code doc} with the text of section {@code id} replaced. */
  public static String replace(String doc, String id, String text) {
    String old = between(doc, id);
    int a = doc.indexOf("<!-- begin " + id + " -->\n") + ("<!-- begin " + id + " -->\n").length();
    return doc.substring(0, a) + text + doc.substring(a + old.length());
  }

  /**
   * The text of section {@code id} in {@code file}, after writing {@code section} there when the
   * system property {@code coflow.docs.update} is true: what a module's drift test compares with
   * {@link #section}.
   */
  public static String current(Path file, String id, String section) throws IOException {
    String doc = Files.readString(file);
    if (Boolean.getBoolean("coflow.docs.update")) {
      doc = replace(doc, id, section);
      Files.writeString(file, doc);
    }
    return between(doc, id);
  }
}
