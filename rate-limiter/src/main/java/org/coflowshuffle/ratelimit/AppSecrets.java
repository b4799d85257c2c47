/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import java.util.Map;
import org.apache.spark.network.sasl.SecretKeyHolder;

/**
 * Secrets as Spark's authentication bootstraps ask for them, where neither Spark's {@code
 * SecurityManager} (an executor) nor a NodeManager's {@code ShuffleSecretManager} holds them: a
 * benchmark, a test, or any client that knows the secret it proves.
 */
public final class AppSecrets implements SecretKeyHolder {

  /** The user name Spark's own secret holders give SASL. */
  private static final String SASL_USER = "sparkSaslUser";

  private final String every;
  private final Map<String, String> byApp;

  private AppSecrets(String every, Map<String, String> byApp) {
    this.every = every;
    this.byApp = Map.copyOf(byApp);
  }

  /** One secret, whatever application asks (as an executor holds its own application's). */
  public static AppSecrets of(String secret) {
    return new AppSecrets(secret, Map.of());
  }

  /** A secret per application; none for others (as a NodeManager's service holds them). */
  public static AppSecrets byApp(Map<String, String> secrets) {
    return new AppSecrets(null, secrets);
  }

  @Override
  public String getSaslUser(String appId) {
    return SASL_USER;
  }

  @Override
  public String getSecretKey(String appId) {
    return every != null ? every : byApp.get(appId);
  }
}
