/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.ratelimit;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;

/** For a raw client of a sender: keeps a copy of every message the sender pushes, in order. */
final class PushedMessages extends RpcHandler {

  final BlockingQueue<ByteBuffer> messages = new LinkedBlockingQueue<>();

  @Override
  public void receive(TransportClient c, ByteBuffer m, RpcResponseCallback cb) {}

  @Override
  public void receive(TransportClient c, ByteBuffer m) {
    ByteBuffer copy = ByteBuffer.allocate(m.remaining());
    copy.put(m).flip();
    messages.add(copy);
  }

  @Override
  public StreamManager getStreamManager() {
    return new OneForOneStreamManager();
  }
}
