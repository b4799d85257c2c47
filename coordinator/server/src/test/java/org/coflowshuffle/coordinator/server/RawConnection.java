/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.coflowshuffle.coordinator.protocol.FrameCodec;
import org.coflowshuffle.coordinator.protocol.FrameSeal;
import org.coflowshuffle.coordinator.protocol.HelloProof;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/** A bare socket to the coordinator for tests that send what no well-behaved client would. */
final class RawConnection implements AutoCloseable {

  final Socket socket = new Socket();
  private final DataInputStream in;
  final Message.Challenge challenge;
  // With a secret, what follows the hello is sealed both ways.
  private FrameSeal sendSeal;
  private FrameSeal readSeal;

  RawConnection(InetSocketAddress address) throws IOException, ProtocolException {
    socket.connect(address, 5000);
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    in = new DataInputStream(socket.getInputStream());
    challenge = (Message.Challenge) read();
  }

  /** Connects and says hello (with a proof when {@code secret} is given). */
  static RawConnection hello(InetSocketAddress address, String secret)
      throws IOException, ProtocolException {
    RawConnection c = new RawConnection(address);
    c.write(
        FrameCodec.encode(
            new Message.Hello(
                "raw", secret == null ? null : HelloProof.prove(secret, c.challenge.nonce()))));
    Message m = c.read();
    if (!(m instanceof Message.Welcome)) {
      throw new IOException("expected a welcome, got " + m);
    }
    if (secret != null) {
      c.sendSeal = FrameSeal.toServer(secret, c.challenge.nonce());
      c.readSeal = FrameSeal.toClient(secret, c.challenge.nonce());
    }
    return c;
  }

  void write(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
  }

  /** Sends a message, sealed when the hello was with a secret. */
  void send(Message m) throws IOException {
    write(seal(m));
  }

  /** The frame {@link #send} would write, sealed when the hello was with a secret. */
  byte[] seal(Message m) {
    return FrameCodec.encode(m, sendSeal);
  }

  /** The next frame, or null when the server closed the connection. */
  Message read() throws IOException, ProtocolException {
    int length;
    try {
      length = in.readInt();
    } catch (EOFException e) {
      return null;
    }
    int version = in.readUnsignedByte();
    int type = in.readUnsignedByte();
    byte[] body = new byte[length - FrameCodec.HEADER_BYTES];
    in.readFully(body);
    return FrameCodec.decode(version, type, body, readSeal);
  }

  /** Whether the server closed the connection (reads EOF within the socket timeout). */
  boolean closedByServer() throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the server
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
