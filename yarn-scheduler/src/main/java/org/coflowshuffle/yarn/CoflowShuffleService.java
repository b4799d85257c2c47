/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import java.io.File;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager auxiliary service that keeps shuffle files served after their executor is gone
 * (so dynamic allocation can release executors, and a lost executor loses no map output), and
 * serves them through the paced transport at the coordinator's rates. It stands in for Spark's own
 * YARN shuffle service: it speaks Spark's protocol on {@code spark.shuffle.service.port} too.
 *
 * <p>Configure it in {@code yarn-site.xml} as the auxiliary service {@value #NAME} with this class,
 * loaded from the service JAR through its own class loader; see {@code docs/yarn.md}. A failure to
 * start never takes the NodeManager down unless {@code coflow.shuffle.service.stopOnFailure} is
 * set: the node then runs without it, and the log says why in one line.
 */
public final class CoflowShuffleService extends AuxiliaryService {

  /** The auxiliary service name executors expect ({@code spark.shuffle.service.name}). */
  public static final String NAME = "coflow_shuffle";

  private static final Logger LOG = LoggerFactory.getLogger(CoflowShuffleService.class);

  private volatile ShuffleServers servers;

  public CoflowShuffleService() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    try {
      ShuffleServiceConf c = ShuffleServiceConf.from(conf);
      File recovery =
          getRecoveryPath() == null ? null : new File(getRecoveryPath().toUri().getPath());
      servers = ShuffleServers.start(c, conf, recovery);
      LOG.info(
          "coflow shuffle service: Spark's protocol on port {}, paced fetches on port {}, {}, {}",
          servers.sparkPort(),
          servers.pacedPort(),
          servers.authenticates()
              ? "each application authenticated with its own secret"
              : "no authentication (spark.authenticate is off)",
          recovery == null
              ? "no recovery (yarn.nodemanager.recovery.enabled is off)"
              : "registrations kept in " + recovery + " (" + c.dbBackend() + ")");
    } catch (Exception | LinkageError e) {
      // Read on its own: a bad value elsewhere in the settings must not hide this one.
      if (ShuffleServiceConf.stopOnFailure(conf)) {
        throw e instanceof Exception ex ? ex : new RuntimeException(e);
      }
      LOG.error(
          "coflow shuffle service: not serving shuffle files on this node ({}); the NodeManager"
              + " runs on without it",
          e.toString());
    }
    super.serviceInit(conf);
  }

  /** Its servers; null before start, after a failure to start, and after stop. */
  ShuffleServers servers() {
    return servers;
  }

  /**
   * Executors register their shuffle directories themselves, through Spark's protocol; with {@code
   * spark.authenticate} the application's secret comes here, from the data it gave this service.
   */
  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    ShuffleServers s = servers;
    if (s == null || !s.authenticates()) {
      return;
    }
    String appId = context.getApplicationId().toString();
    String secret = ServiceData.secret(context.getApplicationDataForService());
    if (secret == null) {
      LOG.warn(
          "coflow shuffle service: application {} gave no secret; its executors cannot connect"
              + " (set spark.authenticate=true in the application, as on this NodeManager)",
          appId);
      return;
    }
    s.applicationAdded(appId, secret);
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    ShuffleServers s = servers;
    if (s != null) {
      s.applicationRemoved(context.getApplicationId().toString());
    }
  }

  /** The paced port, as YARN hands it to applications that ask for this service's metadata. */
  @Override
  public ByteBuffer getMetaData() {
    ShuffleServers s = servers;
    return ByteBuffer.allocate(4).putInt(0, s == null ? -1 : s.pacedPort());
  }

  @Override
  protected void serviceStop() throws Exception {
    ShuffleServers s = servers;
    servers = null;
    if (s != null) {
      s.close();
    }
    super.serviceStop();
  }
}
