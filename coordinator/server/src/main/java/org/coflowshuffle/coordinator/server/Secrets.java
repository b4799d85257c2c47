/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The secrets clients prove in their hello: one shared by every client, and one per principal (a
 * team, a user, an application), so that a leaked secret or a revoked tenant affects one principal
 * only. Either may be absent; with neither, nobody authenticates.
 *
 * @param shared the secret of clients that name no principal; null for none
 * @param byPrincipal secrets by principal name
 */
public record Secrets(String shared, Map<String, String> byPrincipal) {

  public Secrets {
    byPrincipal = Map.copyOf(byPrincipal);
  }

  /** Whether clients must authenticate. */
  public boolean any() {
    return shared != null || !byPrincipal.isEmpty();
  }

  /** The secret a hello naming {@code principal} (null: none) must prove; null when unknown. */
  String of(String principal) {
    return principal == null ? shared : byPrincipal.get(principal);
  }

  /**
   * Reads {@code PRINCIPAL=SECRET} lines; blank lines and lines starting with {@code #} are
   * skipped.
   *
   * @throws IllegalArgumentException naming the file and line of a malformed entry
   */
  static Map<String, String> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the secrets file " + file + ": " + e, e);
    }
    Map<String, String> secrets = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      String principal = eq > 0 ? line.substring(0, eq).strip() : "";
      String secret = eq > 0 ? line.substring(eq + 1).strip() : "";
      if (principal.isEmpty() || secret.isEmpty() || !principal.matches("[A-Za-z0-9._@:-]+")) {
        throw new IllegalArgumentException(
            file
                + " line "
                + (i + 1)
                + ": expected PRINCIPAL=SECRET (principal of letters,"
                + " digits and ._@:-)");
      }
      if (secrets.put(principal, secret) != null) {
        throw new IllegalArgumentException(
            file + " line " + (i + 1) + ": principal " + principal + " appears twice");
      }
    }
    return secrets;
  }
}
