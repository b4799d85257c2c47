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
import org.coflowshuffle.coordinator.protocol.HelloProof;
import org.coflowshuffle.coordinator.protocol.Message;
import org.coflowshuffle.coordinator.protocol.ProtocolException;

/** A bare socket to the coordinator for tests that send what no well-behaved client would. */
final class RawConnection implements AutoCloseable {

  final Socket socket = new Socket();
  private final DataInputStream in;
  final Message.Challenge challenge;

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
    return c;
  }

  void write(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
  }

  void send(Message m) throws IOException {
    write(FrameCodec.encode(m));
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
    return FrameCodec.decode(version, type, body);
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
