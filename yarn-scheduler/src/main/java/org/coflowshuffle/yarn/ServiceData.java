/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.yarn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a Spark application hands this service when YARN starts its executors: its shuffle secret,
 * as the string itself, or as the field {@code secret} of a JSON object when the application turns
 * the service's recovery off. Read as Spark's own YARN shuffle service reads it.
 */
final class ServiceData {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ServiceData() {}

  /** The secret in {@code data}; null when there is none. */
  static String secret(ByteBuffer data) {
    if (data == null || !data.hasRemaining()) {
      return null;
    }
    String payload = StandardCharsets.UTF_8.decode(data.duplicate()).toString();
    if (payload.startsWith("{")) {
      try {
        JsonNode secret = JSON.readTree(payload).get("secret");
        return secret == null || !secret.isTextual() ? null : secret.asText();
      } catch (JsonProcessingException e) {
        return payload; // not JSON after all: the secret itself
      }
    }
    return payload;
  }
}
