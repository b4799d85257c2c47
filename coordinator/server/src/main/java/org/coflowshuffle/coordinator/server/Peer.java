/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.server;

import org.coflowshuffle.coordinator.protocol.Message;

/**
 * One connected client as the scheduler sees it: something to send messages to. Implementations are
 * thread-safe and never block (a send is queued on the connection).
 */
interface Peer {

  /** Queues a message for this client. */
  void send(Message m);

  /** For logs: the client's name from its hello and its address. */
  String name();
}
