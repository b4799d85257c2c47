/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.coordinator.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;

/**
 * Every message of the coordinator protocol, one record per {@link MessageType}; the record's
 * components are the JSON body's fields (docs/protocol.md). Constructors check what a frame alone
 * can tell (names present, counts not negative), so a decoded message is well formed; whether it
 * fits the service's state (a known application, a registered shuffle) is the server's to check.
 *
 * <p>Applications are named by the cluster manager's application id; a shuffle by the id Spark gave
 * it within its application; executors and hosts by their names in the cluster.
 */
public sealed interface Message {

  /**
   * A message about one application. Only the connection that registered the application may send
   * it: another is refused, so that a client acts on its own applications only.
   */
  sealed interface OfApplication extends Message {
    String app();
  }

  /** The type a frame of this message carries. */
  default MessageType type() {
    return MessageType.of(this);
  }

  /** Server to client, first on every connection: the nonce the hello must prove a secret with. */
  record Challenge(int version, String nonce) implements Message {
    public Challenge {
      Checks.name("nonce", nonce);
    }
  }

  /**
   * Client to server, once, first: who it is and, when the service has secrets, {@code proof} =
   * base64 HMAC-SHA256 over the challenge's nonce ({@link HelloProof}) under the secret of {@code
   * principal} (one of the service's per-principal secrets), or under its shared secret when {@code
   * principal} is null (then left out of the frame).
   */
  record Hello(
      String client, String proof, @JsonInclude(JsonInclude.Include.NON_NULL) String principal)
      implements Message {
    public Hello {
      Checks.name("client", client);
      if (principal != null) {
        Checks.name("principal", principal);
      }
    }

    /** A hello under the service's shared secret, or without one. */
    public Hello(String client, String proof) {
      this(client, proof, null);
    }
  }

  /**
   * Server to client: the hello was accepted; {@code scheme} names the scheme that decides. With a
   * secret, {@code proof} shows that the server knows it too ({@link HelloProof#proveWelcome}), and
   * every later frame both ways is sealed ({@link FrameSeal}).
   */
  record Welcome(
      String session, String scheme, @JsonInclude(JsonInclude.Include.NON_NULL) String proof)
      implements Message {

    /** A welcome without a secret. */
    public Welcome(String session, String scheme) {
      this(session, scheme, null);
    }
  }

  /** Server to client: what was wrong with the last frame; the server closes the connection. */
  record Error(ErrorCode code, String message) implements Message {
    public Error {
      if (code == null) {
        throw new IllegalArgumentException("code is required");
      }
    }
  }

  /**
   * Client to server: a heartbeat. The server answers with a {@link Pong} of the same value once it
   * has applied every message the client sent before, so it also works as a barrier.
   */
  record Ping(long value) implements Message {}

  /** Server to client: the answer to a {@link Ping}. */
  record Pong(long value) implements Message {}

  /**
   * A driver starts an application. Its connection owns it: when that connection closes (or goes
   * silent past the timeout), the application's shuffles are dropped. {@code localityWait}, when
   * not null, is how long the application keeps a task waiting for the executor it was placed on
   * while that executor's cores are taken (Spark's {@code spark.locality.wait.process}), seconds,
   * at least 0; null means 0 and is left out of the frame, so that a coordinator older than the
   * field reads it.
   */
  record RegisterApp(String app, @JsonInclude(JsonInclude.Include.NON_NULL) Double localityWait)
      implements OfApplication {
    public RegisterApp {
      Checks.name("app", app);
      if (localityWait != null && !(localityWait >= 0 && localityWait < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException(
            "localityWait must be >= 0 seconds and finite, got " + localityWait);
      }
    }

    /** An application that does not say how long its tasks wait for their executor. */
    public RegisterApp(String app) {
      this(app, null);
    }

    /** The wait in seconds: 0 unless given. */
    public double localityWaitOrZero() {
      return localityWait == null ? 0 : localityWait;
    }
  }

  /**
   * A shuffle of an application: its map and reduce task counts (reducers at most {@link
   * #MAX_REDUCERS}, Spark's own limit for a shuffle's partitions).
   */
  record RegisterShuffle(String app, int shuffle, int maps, int reducers) implements OfApplication {
    public RegisterShuffle {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
      Checks.notNegative("maps", maps);
      Checks.notNegative("reducers", reducers);
      if (reducers > MAX_REDUCERS) {
        throw new IllegalArgumentException(
            "reducers must be at most " + MAX_REDUCERS + ", got " + reducers);
      }
    }
  }

  /** Most reducers a shuffle may have: 2^24, as in Spark's sort-based shuffle. */
  int MAX_REDUCERS = 1 << 24;

  /**
   * One map task's output: where it ran and its exact bytes per reducer; {@code bytes} null (left
   * out of the frame) when the client does not know them, for a shuffle that starts before its
   * sizes are measured. Such a map output's flows then end only with a {@link Progress} that says
   * {@code done}, or with their reducer's {@link ReducerDone}.
   *
   * <p>{@code alsoMaps}, when present, names further map tasks whose output is on the same
   * executor, {@code bytes} then being the sizes of all of them added up: how a client that keeps
   * its map outputs summed per executor reports them again to a coordinator that restarted.
   */
  record MapOutput(
      String app,
      int shuffle,
      int map,
      String host,
      String executor,
      @JsonInclude(JsonInclude.Include.NON_NULL) long[] bytes,
      @JsonInclude(JsonInclude.Include.NON_NULL) int[] alsoMaps)
      implements OfApplication {
    public MapOutput {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
      Checks.notNegative("map", map);
      Checks.name("host", host);
      Checks.name("executor", executor);
      if (bytes != null) {
        for (long b : bytes) {
          Checks.notNegative("bytes", b);
        }
        bytes = bytes.clone();
      }
      if (alsoMaps != null) {
        for (int m : alsoMaps) {
          Checks.notNegative("alsoMaps", m);
        }
        alsoMaps = alsoMaps.clone();
      }
    }

    /** One map task's output. */
    public MapOutput(String app, int shuffle, int map, String host, String executor, long[] bytes) {
      this(app, shuffle, map, host, executor, bytes, null);
    }

    @Override
    public long[] bytes() {
      return bytes == null ? null : bytes.clone();
    }

    @Override
    public int[] alsoMaps() {
      return alsoMaps == null ? null : alsoMaps.clone();
    }

    /** Every map task this output is of: {@code map}, then {@code alsoMaps}. */
    public int[] maps() {
      int[] all = new int[1 + (alsoMaps == null ? 0 : alsoMaps.length)];
      all[0] = map;
      if (alsoMaps != null) {
        System.arraycopy(alsoMaps, 0, all, 1, alsoMaps.length);
      }
      return all;
    }
  }

  /** An executor of an application: where it runs and how many tasks it runs at once. */
  record ExecutorInfo(String id, String host, int slots) {
    public ExecutorInfo {
      Checks.name("id", id);
      Checks.name("host", host);
      if (slots < 1) {
        throw new IllegalArgumentException("slots must be at least 1, got " + slots);
      }
    }
  }

  /** The executors an application has now (the whole set, replacing the last one sent). */
  record Executors(String app, List<ExecutorInfo> executors) implements OfApplication {
    public Executors {
      Checks.name("app", app);
      executors = List.copyOf(Checks.present("executors", executors));
    }
  }

  /**
   * A driver asks where the reducers of a stage reading {@code shuffles} run (all partitioned into
   * the same reducers); answered by a {@link Placement} with the same {@code request}. {@code
   * taskStarts}, when not null, is the first reducer of each of the stage's tasks, for a stage
   * whose tasks read runs of reducers (Spark's adaptive execution coalesced them): the coordinator
   * places tasks then. Null means one task per reducer. {@code weight}, when not null, is the
   * coflow's weight against other coflows (the Spark scheduler pool's), positive; null means 1 and
   * is left out of the frame, so that a coordinator older than the field reads such requests.
   */
  record PlacementRequest(
      String app,
      long request,
      int[] shuffles,
      int[] taskStarts,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double weight)
      implements OfApplication {
    public PlacementRequest {
      Checks.name("app", app);
      if (shuffles == null || shuffles.length == 0) {
        throw new IllegalArgumentException("shuffles must name at least one shuffle");
      }
      for (int s : shuffles) {
        Checks.notNegative("shuffles", s);
      }
      shuffles = shuffles.clone();
      if (taskStarts != null) {
        for (int t = 0; t < taskStarts.length; t++) {
          if (t == 0 ? taskStarts[0] != 0 : taskStarts[t] <= taskStarts[t - 1]) {
            throw new IllegalArgumentException(
                "taskStarts must be 0, then increasing: " + Arrays.toString(taskStarts));
          }
        }
        taskStarts = taskStarts.clone();
      }
      if (weight != null && !(weight > 0 && weight < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("weight must be positive and finite, got " + weight);
      }
    }

    /** A stage of weight 1 with one task per reducer. */
    public PlacementRequest(String app, long request, int[] shuffles) {
      this(app, request, shuffles, null, null);
    }

    /** A stage of weight 1. */
    public PlacementRequest(String app, long request, int[] shuffles, int[] taskStarts) {
      this(app, request, shuffles, taskStarts, null);
    }

    /** The coflow's weight: 1 unless given. */
    public double weightOrOne() {
      return weight == null ? 1 : weight;
    }

    @Override
    public int[] shuffles() {
      return shuffles.clone();
    }

    @Override
    public int[] taskStarts() {
      return taskStarts == null ? null : taskStarts.clone();
    }
  }

  /** Where one reducer runs. */
  record ReducerHost(String executor, String host) {}

  /**
   * The answer to a {@link PlacementRequest}: per reducer its executor, or, when no placement can
   * be made yet, the one-line reason in {@code unavailable} (and no reducers); the driver then
   * keeps Spark's own placement.
   */
  record Placement(
      String app, long request, String scheme, List<ReducerHost> reducers, String unavailable)
      implements Message {
    public Placement {
      reducers = reducers == null ? List.of() : List.copyOf(reducers);
    }
  }

  /**
   * An executor about to fetch what {@code source} holds of a shuffle for a reducer asks at what
   * rate; it is answered by {@link Rates} now and again whenever the decision changes, until the
   * reducer is done. {@code fetcher} is the executor the reducer runs on.
   */
  record RateRequest(String app, int shuffle, int reducer, String source, String fetcher)
      implements OfApplication {
    public RateRequest {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
      Checks.notNegative("reducer", reducer);
      Checks.name("source", source);
      Checks.name("fetcher", fetcher);
    }
  }

  /**
   * The rate of one flow: bytes per second, 0 while it waits, null when it is not paced (fetch at
   * full speed).
   */
  record FlowRate(String app, int shuffle, int reducer, String source, Double bytesPerSecond) {}

  /** Server to client: rates of the decision numbered {@code epoch} (newer epochs win). */
  record Rates(long epoch, List<FlowRate> rates) implements Message {
    public Rates {
      rates = List.copyOf(Checks.present("rates", rates));
    }
  }

  /**
   * A reducer received {@code bytes} more of what {@code source} holds for it; {@code done} true
   * when that was the last of it (how a flow of unknown size ends; null, left out of the frame,
   * means false).
   */
  record Progress(
      String app,
      int shuffle,
      int reducer,
      String source,
      long bytes,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean done)
      implements OfApplication {
    public Progress {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
      Checks.notNegative("reducer", reducer);
      Checks.name("source", source);
      Checks.notNegative("bytes", bytes);
    }

    /** Progress that does not end the flow. */
    public Progress(String app, int shuffle, int reducer, String source, long bytes) {
      this(app, shuffle, reducer, source, bytes, null);
    }

    /** Whether the reducer now has everything {@code source} holds for it. */
    public boolean ended() {
      return Boolean.TRUE.equals(done);
    }
  }

  /** A reduce task ended: its flows are complete. */
  record ReducerDone(String app, int shuffle, int reducer) implements OfApplication {
    public ReducerDone {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
      Checks.notNegative("reducer", reducer);
    }
  }

  /** All reducers of a shuffle are done fetching: its coflow is complete. */
  record ShuffleDone(String app, int shuffle) implements OfApplication {
    public ShuffleDone {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
    }
  }

  /** A shuffle is gone (its data removed): forget everything about it. */
  record UnregisterShuffle(String app, int shuffle) implements OfApplication {
    public UnregisterShuffle {
      Checks.name("app", app);
      Checks.notNegative("shuffle", shuffle);
    }
  }

  /**
   * A host's measured traffic that is not coflow traffic (the paper's site broker), bytes per
   * second each way; the algorithms see the host's link minus this.
   */
  record Bandwidth(String host, double inBytesPerSecond, double outBytesPerSecond)
      implements Message {
    public Bandwidth {
      Checks.name("host", host);
      Checks.notNegative("inBytesPerSecond", inBytesPerSecond);
      Checks.notNegative("outBytesPerSecond", outBytesPerSecond);
    }
  }
}
