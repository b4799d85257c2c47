/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.network.shuffledb.DB;
import org.apache.spark.network.shuffledb.DBBackend;
import org.apache.spark.network.shuffledb.DBIterator;
import org.apache.spark.network.shuffledb.StoreVersion;
import org.apache.spark.network.util.DBProvider;

/**
 * The secrets of the applications a node serves, kept in a recovery database beside the executors'
 * registrations, with Spark's own database code and backend, as Spark's YARN shuffle service keeps
 * them: a NodeManager restarted with {@code yarn.nodemanager.recovery.enabled} authenticates the
 * applications it served before, without YARN handing their secrets again.
 */
final class SecretStore implements AutoCloseable {

  /** The database's name in the service's recovery directory, before the backend's suffix. */
  static final String NAME = "coflowSecrets";

  private static final StoreVersion VERSION = new StoreVersion(1, 0);
  private static final String PREFIX = "AppSecret;";

  private final DB db;

  private SecretStore(DB db) {
    this.db = db;
  }

  /**
   * Opens (or creates) the store in {@code dir}.
   *
   * @throws IOException when the database cannot be opened
   */
  static SecretStore open(File dir, DBBackend backend) throws IOException {
    return new SecretStore(
        DBProvider.initDB(
            backend, new File(dir, backend.fileName(NAME)), VERSION, new ObjectMapper()));
  }

  /** Every application's secret kept, by application id. */
  Map<String, String> load() throws IOException {
    Map<String, String> secrets = new LinkedHashMap<>();
    byte[] prefix = PREFIX.getBytes(StandardCharsets.UTF_8);
    try (DBIterator it = db.iterator()) {
      it.seek(prefix);
      while (it.hasNext()) {
        Map.Entry<byte[], byte[]> e = it.next();
        String key = new String(e.getKey(), StandardCharsets.UTF_8);
        if (!key.startsWith(PREFIX)) {
          break;
        }
        secrets.put(
            key.substring(PREFIX.length()), new String(e.getValue(), StandardCharsets.UTF_8));
      }
    }
    return secrets;
  }

  void put(String appId, String secret) {
    db.put(key(appId), secret.getBytes(StandardCharsets.UTF_8));
  }

  void remove(String appId) {
    db.delete(key(appId));
  }

  private static byte[] key(String appId) {
    return (PREFIX + appId).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
