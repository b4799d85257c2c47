/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.FrameSeal;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * The standalone coordinator: the protocol over Netty on one port, status and metrics over HTTP on
 * another, and one scheduling thread that owns the {@link ClusterScheduler}.
 *
 * <p>Network threads only decode, authenticate and queue; the scheduling thread applies messages in
 * arrival order and, once the messages queued before it are applied, decides and pushes rates (so a
 * burst of events costs one decision). It also wakes up when the scheme's own timer is due.
 */
public final class CoordinatorServer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(CoordinatorServer.class.getName());

  private final CoordinatorConf conf;
  private final CoordinatorMetrics metrics = new CoordinatorMetrics();
  private final long startNanos = System.nanoTime();
  private final ClusterScheduler scheduler;
  private final ScheduledExecutorService loop =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "coflow-scheduler");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean pushQueued = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Every open connection, so that stopping closes each one and its client sees it at once. */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel listener;
  private final StatusHttpServer http;

  /** Scheduling thread only: when the oldest event not yet answered by a push arrived. */
  private long pendingSince = -1;

  private ScheduledFuture<?> wakeUp;

  private CoordinatorServer(CoordinatorConf conf) throws IOException {
    this.conf = conf;
    this.scheduler = new ClusterScheduler(conf, this::seconds);
    boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    workers = new MultiThreadIoEventLoopGroup(conf.ioThreads(), NioIoHandler.newFactory());
    try {
      listener =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(NioServerSocketChannel.class)
              // What a client is sent and has not read: past 1 MiB, it is read no more until it
              // catches up (see ConnectionHandler#channelWritabilityChanged).
              .childOption(
                  ChannelOption.WRITE_BUFFER_WATER_MARK,
                  new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      connections.add(ch);
                      ch.pipeline()
                          .addLast(
                              "idle",
                              new IdleStateHandler(
                                  (long) (conf.clientTimeoutSeconds() * 1000),
                                  0,
                                  0,
                                  TimeUnit.MILLISECONDS))
                          .addLast("frameDecoder", new FrameDecoder(conf.maxFrameBytes()))
                          .addLast("frameEncoder", new FrameEncoder())
                          .addLast(
                              "connection",
                              new ConnectionHandler(CoordinatorServer.this, conf.secrets()));
                    }
                  })
              .bind(new InetSocketAddress(conf.bind(), conf.port()))
              .sync()
              .channel();
      http =
          new StatusHttpServer(
              this, new InetSocketAddress(conf.httpBind(), conf.httpPort()), conf.httpToken());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shutdownGroups();
      throw new IOException("interrupted while binding port " + conf.port(), e);
    } catch (IOException | RuntimeException e) {
      shutdownGroups();
      throw e instanceof IOException io
          ? io
          : new IOException("cannot listen on port " + conf.port() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Starts listening on both ports.
   *
   * @throws IOException when a port cannot be bound
   */
  public static CoordinatorServer start(CoordinatorConf conf) throws IOException {
    CoordinatorServer s = new CoordinatorServer(conf);
    LOG.log(
        Level.INFO,
        "coflow coordinator: protocol on {0}, HTTP on {1}, scheme {2}, {3}",
        s.address(),
        s.httpAddress(),
        conf.scheme(),
        describe(conf.secrets()));
    return s;
  }

  /** Where the protocol is served. */
  public InetSocketAddress address() {
    return (InetSocketAddress) listener.localAddress();
  }

  /** Where {@code /status}, {@code /metrics} and the status page are served. */
  public InetSocketAddress httpAddress() {
    return http.address();
  }

  /** Connections open now (for tests that check none leak). */
  public long openConnections() {
    return metrics.openConnections();
  }

  /**
   * The current status, read on the scheduling thread.
   *
   * @throws IllegalStateException when the scheduling thread does not answer within 5 s
   */
  public Status status() {
    try {
      return loop.submit(scheduler::status).get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the status", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the scheduling thread did not answer: " + e, e);
    }
  }

  /** Flow rates pushed to fetchers so far. */
  public long ratesPushed() {
    return metrics.ratesPushed();
  }

  /** Decisions sent so far (placements and rate pushes). */
  public long decisions() {
    return metrics.decisions();
  }

  /**
   * Latency of each decision after the first {@code from}, seconds from the first event it answers
   * until it was handed to the network (at most the last 65,536), for benchmarks.
   */
  public double[] decisionLatenciesSince(long from) {
    return metrics.latenciesSince(from);
  }

  /** The text of {@code /metrics}. */
  public String metricsText() {
    return metrics.prometheus(status());
  }

  CoordinatorMetrics metrics() {
    return metrics;
  }

  String scheme() {
    return conf.scheme();
  }

  double clientTimeoutSeconds() {
    return conf.clientTimeoutSeconds();
  }

  double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** Queues a message for the scheduling thread; a rate push follows once the queue is drained. */
  void submit(ConnectionHandler from, Message m, long receivedNanos) {
    loop.execute(
        () -> {
          try {
            scheduler.handle(from, m);
            if (m instanceof Message.PlacementRequest) {
              metrics.decision((System.nanoTime() - receivedNanos) / 1e9, 0);
            }
          } catch (ProtocolException e) {
            from.fail(e);
          } catch (RuntimeException e) {
            LOG.log(
                Level.WARNING,
                "coflow coordinator: failed on " + m.type() + " from " + from.name(),
                e);
            from.fail(new ProtocolException(ErrorCode.INTERNAL, m.type() + ": " + e));
          }
          if (pendingSince < 0 && (scheduler.decisionDue() || m instanceof Message.RateRequest)) {
            pendingSince = receivedNanos;
          }
          queuePush();
        });
  }

  /** A connection closed: drop what it owned, on the scheduling thread. */
  void disconnected(ConnectionHandler peer) {
    loop.execute(
        () -> {
          scheduler.disconnected(peer);
          queuePush();
        });
  }

  private void queuePush() {
    if (pushQueued.compareAndSet(false, true)) {
      loop.execute(this::push);
    }
  }

  private void push() {
    pushQueued.set(false);
    try {
      int sent = scheduler.pushRates();
      // Decisions an event waited for count; those of the scheme's own timer have no one waiting.
      if (sent >= 0 && pendingSince >= 0) {
        metrics.decision((System.nanoTime() - pendingSince) / 1e9, sent);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "coflow coordinator: deciding rates failed; rates stay as sent", e);
    }
    pendingSince = -1;
    scheduleWakeUp();
  }

  private void scheduleWakeUp() {
    double at = scheduler.wakeUpAt();
    if (wakeUp != null) {
      wakeUp.cancel(false);
      wakeUp = null;
    }
    if (Double.isFinite(at)) {
      long delayNanos = Math.max(0, (long) ((at - seconds()) * 1e9));
      wakeUp = loop.schedule(this::queuePush, delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    http.close();
    listener.close().awaitUninterruptibly();
    connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    shutdownGroups();
    loop.shutdownNow();
  }

  private void shutdownGroups() {
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
  }

  /** How clients authenticate, in a few words for a log line. */
  public static String describe(Secrets secrets) {
    if (!secrets.any()) {
      return "no authentication";
    }
    int principals = secrets.byPrincipal().size();
    return (secrets.shared() != null ? "shared secret" : "")
        + (secrets.shared() != null && principals > 0 ? " and " : "")
        + (principals > 0 ? principals + " principal secret(s)" : "")
        + ", frames sealed after the hello";
  }

  /** Messages to frames, sealed once the connection's hello set a seal. */
  static final class FrameEncoder extends MessageToByteEncoder<Message> {
    private FrameSeal seal;

    /** Seals every frame after this call (on the connection's event loop). */
    void seal(FrameSeal s) {
      seal = s;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Message m, ByteBuf out) {
      out.writeBytes(FrameCodec.encode(m, seal));
    }
  }
}
