/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** The messages whose form on the wire is not Java serialization of the record itself. */
class MessagesTest {

  private static Messages.FetchOrder order() {
    return new Messages.FetchOrder(
        3,
        5,
        new String[] {"1", "2"},
        new String[] {"h1", "h2"},
        new int[] {7337, 7338},
        new String[] {"h1:4001", ""},
        new String[][] {{"shuffle_3_0_5", "shuffle_3_1_5"}, {"shuffle_3_2_5"}},
        new long[][] {{10, 20}, {30}});
  }

  @Test
  void aFetchOrderCrossesJavaSerializationAsJdkArraysAndComesBackWhole() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(order().wire());
    }
    Object read;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      read = in.readObject();
    }
    Messages.FetchOrder back = Messages.FetchOrder.of((Object[]) read);
    assertEquals(3, back.shuffleId());
    assertEquals(5, back.reducer());
    assertArrayEquals(new String[] {"1", "2"}, back.execIds());
    assertArrayEquals(new int[] {7337, 7338}, back.ports());
    assertArrayEquals(new String[] {"h1:4001", ""}, back.paced());
    assertArrayEquals(new String[] {"shuffle_3_2_5"}, back.blockIds()[1]);
    assertArrayEquals(new long[] {10, 20}, back.sizes()[0]);
  }

  @Test
  void anythingElseIsNotAFetchOrder() {
    Object[] wire = order().wire();
    wire[6] = new long[][] {{10, 20}}; // one source's sizes missing
    assertThrows(IllegalArgumentException.class, () -> Messages.FetchOrder.of(wire));
    assertThrows(
        IllegalArgumentException.class, () -> Messages.FetchOrder.of(new Object[] {new int[0]}));
    Object[] blocksOff = order().wire();
    blocksOff[6] = new long[][] {{10}, {30}}; // a block without its size
    assertThrows(IllegalArgumentException.class, () -> Messages.FetchOrder.of(blocksOff));
  }
}
