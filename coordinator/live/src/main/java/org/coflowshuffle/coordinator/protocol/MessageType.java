/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * The message types, each with the id it has on the wire. Ids are fixed forever: a new message gets
 * a new id, a retired id is never reused. An id not listed here fails loudly ({@link
 * ErrorCode#UNKNOWN_TYPE}).
 */
public enum MessageType {
  CHALLENGE(1, Message.Challenge.class),
  HELLO(2, Message.Hello.class),
  WELCOME(3, Message.Welcome.class),
  ERROR(4, Message.Error.class),
  PING(5, Message.Ping.class),
  PONG(6, Message.Pong.class),
  REGISTER_APP(10, Message.RegisterApp.class),
  REGISTER_SHUFFLE(11, Message.RegisterShuffle.class),
  MAP_OUTPUT(12, Message.MapOutput.class),
  EXECUTORS(13, Message.Executors.class),
  PLACEMENT_REQUEST(14, Message.PlacementRequest.class),
  PLACEMENT(15, Message.Placement.class),
  RATE_REQUEST(16, Message.RateRequest.class),
  RATES(17, Message.Rates.class),
  PROGRESS(18, Message.Progress.class),
  REDUCER_DONE(19, Message.ReducerDone.class),
  SHUFFLE_DONE(20, Message.ShuffleDone.class),
  UNREGISTER_SHUFFLE(21, Message.UnregisterShuffle.class),
  BANDWIDTH(22, Message.Bandwidth.class);

  private static final Map<Integer, MessageType> BY_ID = new HashMap<>();
  private static final Map<Class<?>, MessageType> BY_CLASS = new HashMap<>();

  static {
    for (MessageType t : values()) {
      BY_ID.put(t.id, t);
      BY_CLASS.put(t.body, t);
    }
  }

  private final int id;
  private final Class<? extends Message> body;

  MessageType(int id, Class<? extends Message> body) {
    this.id = id;
    this.body = body;
  }

  /** The byte that names this type in a frame. */
  public int id() {
    return id;
  }

  /** The record its JSON body decodes into. */
  public Class<? extends Message> body() {
    return body;
  }

  /**
   * The type with this id.
   *
   * @throws ProtocolException {@link ErrorCode#UNKNOWN_TYPE} for an id not listed
   */
  public static MessageType of(int id) throws ProtocolException {
    MessageType t = BY_ID.get(id);
    if (t == null) {
      throw new ProtocolException(ErrorCode.UNKNOWN_TYPE, "unknown message type id " + id);
    }
    return t;
  }

  static MessageType of(Message m) {
    return BY_CLASS.get(m.getClass());
  }
}
