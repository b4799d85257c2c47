/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.lang.System.Logger.Level;
import org.coflowshuffle.coordinator.protocol.ErrorCode;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.FrameSeal;
import org.coflowshuffle.coordinator.protocol.HelloProof;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * One client connection: sends the challenge, checks the hello (against the secret of the principal
 * it names, or the shared one) and, with a secret, proves it back in the welcome and seals every
 * later frame both ways; answers pings, and hands every other message to the scheduling loop. Any
 * refused frame is answered with an {@link Message.Error} naming what was wrong, then the
 * connection is closed; other connections are not affected.
 */
final class ConnectionHandler extends SimpleChannelInboundHandler<Message> implements Peer {

  private static final System.Logger LOG = System.getLogger(CoordinatorServer.class.getName());

  private final CoordinatorServer server;
  private final Secrets secrets;
  private final String nonce = HelloProof.nonce();
  private Channel channel;
  private volatile String client;
  private boolean closing;

  /** Rate pushes held while the client does not read; event loop only. */
  private final HeldRates heldRates = new HeldRates();

  ConnectionHandler(CoordinatorServer server, Secrets secrets) {
    this.server = server;
    this.secrets = secrets;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    server.metrics().opened();
    ctx.writeAndFlush(new Message.Challenge(FrameCodec.VERSION, nonce));
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    // Queue the clean-up before the count drops: whoever sees no open connection and then asks for
    // the status (queued behind it on the scheduling thread) no longer sees this peer's apps.
    if (client != null) {
      server.disconnected(this);
    }
    server.metrics().closed();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Message m) {
    if (closing) {
      return;
    }
    server.metrics().frame(m.type());
    try {
      if (client == null) {
        hello(m);
      } else if (m instanceof Message.Hello) {
        throw new ProtocolException(ErrorCode.OUT_OF_ORDER, "a second hello on one connection");
      } else {
        server.submit(this, m, System.nanoTime());
      }
    } catch (ProtocolException e) {
      fail(e);
    }
  }

  private void hello(Message m) throws ProtocolException {
    if (!(m instanceof Message.Hello h)) {
      throw new ProtocolException(
          ErrorCode.OUT_OF_ORDER, m.type() + " before the hello; send HELLO first");
    }
    String session = Integer.toHexString(System.identityHashCode(this));
    if (!secrets.any()) {
      client = h.client() + "@" + channel.remoteAddress();
      send(new Message.Welcome(session, server.scheme()));
      return;
    }
    String secret = secrets.of(h.principal());
    if (secret == null) {
      throw new ProtocolException(
          ErrorCode.UNAUTHENTICATED,
          h.principal() == null
              ? "this coordinator knows secrets by principal only; the hello names none"
              : "no secret for principal " + h.principal());
    }
    if (!HelloProof.verify(secret, nonce, h.proof())) {
      throw new ProtocolException(
          ErrorCode.UNAUTHENTICATED,
          h.proof() == null
              ? "this coordinator requires a secret; the hello has no proof"
              : "the hello's proof does not match this connection's challenge and the secret"
                  + (h.principal() == null ? "" : " of principal " + h.principal()));
    }
    client =
        h.client()
            + (h.principal() == null ? "" : " (" + h.principal() + ")")
            + "@"
            + channel.remoteAddress();
    send(new Message.Welcome(session, server.scheme(), HelloProof.proveWelcome(secret, nonce)));
    // The welcome went out unsealed (written on this event loop, so before anything else); from
    // here on both directions are sealed.
    channel
        .pipeline()
        .get(CoordinatorServer.FrameEncoder.class)
        .seal(FrameSeal.toClient(secret, nonce));
    channel.pipeline().get(FrameDecoder.class).seal(FrameSeal.toServer(secret, nonce));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof IdleStateEvent) {
      LOG.log(
          Level.WARNING,
          "coflow coordinator: closing {0}: silent for {1} s",
          name(),
          server.clientTimeoutSeconds());
      ctx.close();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable c =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (c instanceof ProtocolException e) {
      fail(e);
    } else {
      LOG.log(Level.WARNING, "coflow coordinator: closing " + name() + ": " + c, c);
      fail(new ProtocolException(ErrorCode.INTERNAL, String.valueOf(c.getMessage())));
    }
  }

  /** Answers with the error, counts it, logs one line, and closes. Safe from any thread. */
  void fail(ProtocolException e) {
    channel
        .eventLoop()
        .execute(
            () -> {
              if (closing) {
                return;
              }
              closing = true;
              server.metrics().error(e.code());
              LOG.log(
                  Level.INFO,
                  "coflow coordinator: refused a frame from {0}: {1} {2}",
                  name(),
                  e.code(),
                  e.getMessage());
              channel.writeAndFlush(e.toMessage()).addListener(ChannelFutureListener.CLOSE);
            });
  }

  /** Queues a message; rate pushes wait, merged, while the client does not read what it is sent. */
  @Override
  public void send(Message m) {
    if (m instanceof Message.Rates r) {
      channel.eventLoop().execute(() -> push(r));
    } else {
      channel.writeAndFlush(m, channel.voidPromise());
    }
  }

  private void push(Message.Rates r) {
    heldRates.add(r);
    writeHeldRates();
  }

  private void writeHeldRates() {
    while (!heldRates.isEmpty() && channel.isWritable()) {
      channel.writeAndFlush(heldRates.next(), channel.voidPromise());
    }
  }

  /**
   * Backpressure: while what this client was sent piles up unread, the server stops reading from it
   * (so its requests cannot make more answers pile up) and holds its rate pushes back; both resume
   * once it reads. A client that stays that way goes silent and is closed at the client timeout.
   */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    boolean writable = ctx.channel().isWritable();
    ctx.channel().config().setAutoRead(writable);
    if (writable) {
      writeHeldRates();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public String name() {
    String c = client;
    return c != null
        ? c
        : "unidentified client@" + (channel == null ? "?" : channel.remoteAddress());
  }
}
