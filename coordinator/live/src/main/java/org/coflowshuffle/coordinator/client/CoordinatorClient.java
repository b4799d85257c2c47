/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.client;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.FrameSeal;
import org.coflowshuffle.coordinator.protocol.HelloProof;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/**
 * A blocking client of the coordinator protocol over one socket: it answers the challenge, then
 * sends messages and hands over what the server sends (answers and pushed rates) in arrival order.
 * One daemon thread reads; {@link #send} may be called from any thread.
 */
public final class CoordinatorClient implements AutoCloseable {

  /** Raised when the server refuses the hello (or anything else) with an error. */
  public static final class RefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Message.Error error;

    RefusedException(Message.Error error) {
      super("coordinator refused: " + error.code() + " " + error.message());
      this.error = error;
    }

    public Message.Error error() {
      return error;
    }
  }

  private static final Message CLOSED = new Message.Pong(Long.MIN_VALUE);

  /**
   * Largest frame read from the server until a placement of many reducers is asked for: a longer
   * length prefix fails the connection instead of allocating what an impostor or a corrupt stream
   * names.
   */
  public static final int MAX_FRAME_BYTES = 1 << 20;

  /** Bytes a placement answer may take per reducer: an executor and a host name, up to 255 each. */
  static final int PLACEMENT_BYTES_PER_REDUCER = 600;

  private volatile int maxFrameBytes = MAX_FRAME_BYTES;

  private final Socket socket;
  private final OutputStream out;
  private final BlockingQueue<Message> inbox = new LinkedBlockingQueue<>();
  private final Thread reader;
  private final Message.Welcome welcome;
  private final String secret;
  private volatile IOException readFailure;
  // Seals what this client sends once the server proved the secret; guarded by this.
  private FrameSeal sendSeal;

  private CoordinatorClient(
      InetSocketAddress address, String name, String principal, String secret, Duration timeout)
      throws IOException {
    this.secret = secret;
    socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(address, (int) timeout.toMillis());
      out = socket.getOutputStream();
      reader = new Thread(this::read, "coflow-client-" + name);
      reader.setDaemon(true);
      reader.start();
      Message first = next(timeout);
      if (!(first instanceof Message.Challenge c)) {
        throw new IOException(
            "coordinator at " + address + " sent " + first + " instead of a challenge");
      }
      send(
          new Message.Hello(
              name, secret == null ? null : HelloProof.prove(secret, c.nonce()), principal));
      Message answer = next(timeout);
      if (!(answer instanceof Message.Welcome w)) {
        throw new IOException("coordinator at " + address + " answered the hello with " + answer);
      }
      if (secret != null) {
        if (!HelloProof.verifyWelcome(secret, c.nonce(), w.proof())) {
          throw new IOException(
              "coordinator at "
                  + address
                  + " did not prove it knows the secret: refusing to be scheduled by it");
        }
        synchronized (this) {
          sendSeal = FrameSeal.toServer(secret, c.nonce());
        }
      }
      welcome = w;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * Connects and authenticates with the coordinator's shared secret.
   *
   * @param secret the shared secret, or null when the coordinator has none
   * @throws RefusedException when the coordinator refuses the hello
   * @throws IOException when it cannot be reached, does not answer within {@code timeout}, or (with
   *     a secret) does not prove it knows the secret
   */
  public static CoordinatorClient connect(
      InetSocketAddress address, String name, String secret, Duration timeout) throws IOException {
    return new CoordinatorClient(address, name, null, secret, timeout);
  }

  /**
   * Connects and authenticates as {@code principal}, with that principal's secret.
   *
   * @param principal the name the coordinator knows {@code secret} under; null for its shared one
   * @throws RefusedException when the coordinator refuses the hello
   * @throws IOException as {@link #connect(InetSocketAddress, String, String, Duration)}
   */
  public static CoordinatorClient connect(
      InetSocketAddress address, String name, String principal, String secret, Duration timeout)
      throws IOException {
    return new CoordinatorClient(address, name, principal, secret, timeout);
  }

  /**
   * Lets frames as long as the answer to placing {@code reducers} reducers may be ({@link
   * #PLACEMENT_BYTES_PER_REDUCER} each beyond {@link #MAX_FRAME_BYTES}) be read from now on.
   */
  public void expectPlacement(int reducers) {
    long need = MAX_FRAME_BYTES + (long) PLACEMENT_BYTES_PER_REDUCER * Math.max(0, reducers);
    maxFrameBytes = (int) Math.max(maxFrameBytes, Math.min(Integer.MAX_VALUE - 8, need));
  }

  /** The server's answer to the hello. */
  public Message.Welcome welcome() {
    return welcome;
  }

  /** Sends one message (sealed, after the hello, when the coordinator has a secret). */
  public synchronized void send(Message m) throws IOException {
    sendRaw(FrameCodec.encode(m, sendSeal));
  }

  /** Sends bytes as they are (for tests of what the server does with bad frames). */
  public synchronized void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * The next message from the server, waiting up to {@code timeout}.
   *
   * @return null when nothing arrived in time
   * @throws RefusedException when the server sent an error
   * @throws IOException when the connection is closed and nothing is left to read
   */
  public Message receive(Duration timeout) throws IOException {
    return next(timeout);
  }

  /**
   * The next message of the given type, skipping others (such as pushed rates while waiting for a
   * placement).
   *
   * @throws IOException on timeout, an error from the server, or a closed connection
   */
  public <T extends Message> T await(Class<T> type, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Message m = left > 0 ? next(Duration.ofNanos(left)) : null;
      if (m == null) {
        throw new IOException("no " + type.getSimpleName() + " within " + timeout);
      }
      if (type.isInstance(m)) {
        return type.cast(m);
      }
    }
  }

  /** Whether the server closed the connection (everything it sent before was still delivered). */
  public boolean isClosed() {
    return !reader.isAlive();
  }

  private Message next(Duration timeout) throws IOException {
    Message m;
    try {
      m = inbox.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (m == CLOSED) {
      inbox.offer(CLOSED);
      throw readFailure != null ? readFailure : new EOFException("connection closed");
    }
    if (m instanceof Message.Error e) {
      throw new RefusedException(e);
    }
    return m;
  }

  private void read() {
    try {
      DataInputStream in = new DataInputStream(socket.getInputStream());
      String nonce = null;
      FrameSeal seal = null; // the server seals what it sends after the welcome
      while (true) {
        int length = in.readInt();
        FrameCodec.checkLength(length, maxFrameBytes);
        int version = in.readUnsignedByte();
        int type = in.readUnsignedByte();
        byte[] body = new byte[length - FrameCodec.HEADER_BYTES];
        in.readFully(body);
        Message m = FrameCodec.decode(version, type, body, seal);
        if (m instanceof Message.Challenge c && nonce == null) {
          nonce = c.nonce();
        } else if (m instanceof Message.Welcome && secret != null && seal == null) {
          seal = FrameSeal.toClient(secret, nonce);
        }
        inbox.add(m);
      }
    } catch (EOFException e) {
      // The server closed the connection.
    } catch (IOException e) {
      readFailure = socket.isClosed() ? null : e;
    } catch (ProtocolException | RuntimeException e) {
      readFailure = new IOException("unreadable frame from the coordinator: " + e.getMessage(), e);
    } finally {
      inbox.add(CLOSED);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    try {
      reader.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
