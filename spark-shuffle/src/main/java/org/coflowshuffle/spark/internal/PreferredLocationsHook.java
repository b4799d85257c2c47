/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes Spark's driver ask the coordinator where reduce tasks run. Spark has no public hook for
 * this, so calls to hooks are woven into four of its methods ({@link SparkShapes#WOVEN}) in the
 * driver JVM (a self-attached agent, so no extra JVM flag), once per JVM; each application then
 * sets or clears its placer. The methods are in classes Spark loads after the plugin starts, which
 * are woven as they load if the weaver is registered by then; a class loaded before is rewritten in
 * place, and the first class rewritten in a running JVM makes it drop all the code it compiled
 * until then (it kept no record of what depends on what): the driver compiles it again, seconds of
 * CPU at start on a small machine. Started as the driver's Java agent ({@code -javaagent:} this
 * JAR, {@link #premain}), the weaver is registered before anything loads. The woven code finds the
 * hooks in the system properties and catches nothing: each hook is put there guarded, so that
 * anything it throws leaves Spark's own behaviour, except a {@link VirtualMachineError} (out of
 * memory, stack overflow): the JVM is failing, and Spark must see it.
 */
public final class PreferredLocationsHook {

  private static final Logger LOG = LoggerFactory.getLogger(PreferredLocationsHook.class);

  /** Whether a hook's failure was logged: once per JVM, as the next ones likely repeat it. */
  private static final AtomicBoolean FAILURE_LOGGED = new AtomicBoolean();

  private static boolean woven;

  /** The weaver registered by {@link #premain}, or null: the driver did not start with it. */
  private static volatile Weaver atStart;

  private PreferredLocationsHook() {}

  /**
   * This JAR as a Java agent: registers the weaver before Spark's classes load, so that they are
   * woven as they load and nothing is rewritten later. The woven code finds no hooks until an
   * application installs them, and answers as Spark does until then.
   */
  public static void premain(String args, Instrumentation inst) {
    atStart = Weaver.registered(inst);
  }

  /**
   * Weaves the advice if not yet done and makes the placer's three functions answer.
   *
   * @param stage a stage is being submitted for a job: {@code (Stage, Integer jobId)}
   * @param rdd where a partition of an RDD that reads a shuffle runs: {@code (RDD, Partition)} to a
   *     Scala {@code Seq} of locations, or null for Spark's own answer
   * @param task where the DAG scheduler runs a partition of an RDD of a stage's lineage: {@code
   *     (RDD, Integer partition)} to a {@code Seq} of {@code TaskLocation}, or null
   * @return how many of Spark's classes were rewritten after they had loaded: 0 where they were
   *     woven as they loaded, or at an earlier install
   * @throws IllegalStateException when this Spark lacks a method a hook goes into ({@link
   *     SparkShapes}), or the JVM refuses the agent (for example a JRE without the attach module);
   *     Spark's placement then stays
   */
  public static synchronized int install(
      BiConsumer<Object, Object> stage,
      BiFunction<Object, Object, Object> rdd,
      BiFunction<Object, Object, Object> task) {
    int rewritten = 0;
    if (!woven) {
      String mismatch =
          SparkShapes.mismatch(SparkShapes.WOVEN, PreferredLocationsHook.class.getClassLoader());
      if (mismatch != null) {
        throw new IllegalStateException(
            "this Spark ("
                + org.apache.spark.package$.MODULE$.SPARK_VERSION()
                + ") is not the one the plugin is built for: "
                + mismatch);
      }
      Weaver weaver = atStart != null ? atStart : Weaver.registered(attach());
      atStart = null; // one that fails is removed: a later install attaches afresh
      rewritten = weave(weaver);
      woven = true;
    }
    Properties p = System.getProperties();
    p.put(SparkShapes.STAGE_KEY, guarded(stage));
    p.put(SparkShapes.RDD_KEY, guarded(rdd, returned(SparkShapes.RDD_KEY)));
    p.put(SparkShapes.TASK_KEY, guarded(task, returned(SparkShapes.TASK_KEY)));
    return rewritten;
  }

  /**
   * Puts the hooks into Spark's classes through {@code weaver}, registered: loading a class not
   * loaded yet weaves it, and only those loaded before are rewritten. Returns how many were.
   */
  private static int weave(Weaver weaver) {
    Class<?>[] loaded;
    try {
      loaded = weaver.notWoven(weaver.targets(PreferredLocationsHook.class.getClassLoader()));
      if (loaded.length > 0) {
        weaver.inst.retransformClasses(loaded);
      }
    } catch (ClassNotFoundException | UnmodifiableClassException e) {
      weaver.inst.removeTransformer(weaver);
      throw new IllegalStateException("cannot weave Spark's placement: " + e, e);
    }
    if (weaver.failure != null) {
      weaver.inst.removeTransformer(weaver);
      throw new IllegalStateException(
          "cannot weave Spark's placement: " + weaver.failure, weaver.failure);
    }
    return loaded.length;
  }

  /**
   * The JVM's instrumentation, by an agent attached from a second JVM. Tried twice: on a loaded
   * machine the driver may not answer the attach within the JDK's 10 s (the second JVM then reports
   * the target process not responding).
   */
  private static Instrumentation attach() {
    try {
      return ByteBuddyAgent.install();
    } catch (RuntimeException e) {
      LOG.info("coflow: attaching the placement agent failed, trying once more: {}", e.toString());
    }
    try {
      return ByteBuddyAgent.install();
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot attach an agent to this JVM: " + e.getMessage(), e);
    }
  }

  /** The return type of the method whose hook is kept under {@code key}, as Spark loads it. */
  private static Class<?> returned(String key) {
    SparkShapes.Woven w =
        SparkShapes.WOVEN.stream().filter(v -> v.key().equals(key)).findFirst().orElseThrow();
    try {
      return Class.forName(w.returns(), false, PreferredLocationsHook.class.getClassLoader());
    } catch (ClassNotFoundException e) { // SparkShapes.mismatch found the method with this type
      throw new IllegalStateException("class " + w.returns() + " not found", e);
    }
  }

  /** {@code hook}, with anything it throws dropped but a {@link VirtualMachineError}. */
  static BiConsumer<Object, Object> guarded(BiConsumer<Object, Object> hook) {
    return (a, b) -> {
      try {
        hook.accept(a, b);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failed(e); // Spark's own behaviour
      }
    };
  }

  /**
   * {@code hook}, answering null (Spark's own answer) for anything it throws but a {@link
   * VirtualMachineError}, and for an answer that is not of type {@code returns}.
   */
  static BiFunction<Object, Object, Object> guarded(
      BiFunction<Object, Object, Object> hook, Class<?> returns) {
    return (a, b) -> {
      try {
        Object answer = hook.apply(a, b);
        return returns.isInstance(answer) ? answer : null;
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failed(e);
        return null; // Spark's own answer
      }
    };
  }

  private static void failed(Throwable e) {
    if (FAILURE_LOGGED.compareAndSet(false, true)) {
      LOG.warn(
          "coflow: a placement hook failed and Spark answered for it (logged once): {}",
          e.toString());
    }
  }

  /**
   * Puts the hooks into Spark's classes and nothing else: a transformer that compares one name per
   * class, not every class loaded before and after (tens of thousands in a driver, Spark SQL's
   * generated code included). It stays registered, so that a later retransformation by another
   * agent keeps the hooks, and it rewrites the bytes it is given, so that it keeps theirs.
   */
  private static final class Weaver implements ClassFileTransformer {

    /** What goes where, by the JVM's internal name of the class. */
    private final Map<String, List<SparkShapes.Woven>> byName =
        SparkShapes.WOVEN.stream()
            .collect(Collectors.groupingBy(w -> w.className().replace('.', '/')));

    /** The internal names of the classes woven so far. */
    private final Set<String> woven = ConcurrentHashMap.newKeySet();

    private final Instrumentation inst;

    private volatile Throwable failure;

    private Weaver(Instrumentation inst) {
      this.inst = inst;
    }

    /** A weaver registered with {@code inst}: from now on, it weaves each class as it loads. */
    static Weaver registered(Instrumentation inst) {
      Weaver weaver = new Weaver(inst);
      inst.addTransformer(weaver, true);
      return weaver;
    }

    /** Those of {@code types} not woven yet: loaded before the weaver was registered. */
    Class<?>[] notWoven(Class<?>[] types) {
      return Arrays.stream(types)
          .filter(t -> !woven.contains(t.getName().replace('.', '/')))
          .toArray(Class<?>[]::new);
    }

    /** The classes to weave, loaded (and so woven, if not loaded before) by {@code loader}. */
    Class<?>[] targets(ClassLoader loader) throws ClassNotFoundException {
      List<Class<?>> types = new ArrayList<>();
      for (String name : byName.keySet()) {
        types.add(Class.forName(name.replace('/', '.'), false, loader));
      }
      return types.toArray(Class<?>[]::new);
    }

    @Override
    public byte[] transform(
        ClassLoader loader,
        String internalName,
        Class<?> redefined,
        ProtectionDomain domain,
        byte[] bytes) {
      List<SparkShapes.Woven> methods = internalName == null ? null : byName.get(internalName);
      if (methods == null) {
        return null;
      }
      if (holds(bytes, methods.get(0).key())) { // woven by the plugin's other copy, the driver's
        woven.add(
            internalName); // agent (a class loader that looks in the application's JARs first)
        return null;
      }
      try {
        byte[] rewoven = bytes;
        for (SparkShapes.Woven method : methods) {
          rewoven = EntryHookWeaver.weave(rewoven, method);
        }
        woven.add(internalName);
        return rewoven;
      } catch (RuntimeException | LinkageError e) {
        failure = e; // the JVM drops what a transformer throws; install reports it
        return null;
      }
    }
  }

  /** Whether class file {@code bytes} hold the ASCII string {@code key}, as its hook's does. */
  static boolean holds(byte[] bytes, String key) {
    byte[] k = key.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + k.length <= bytes.length; i++) {
      for (int j = 0; j < k.length; j++) {
        if (bytes[i + j] != k[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** Spark's own placement again, for every later call. */
  public static synchronized void uninstall() {
    Properties p = System.getProperties();
    p.remove(SparkShapes.STAGE_KEY);
    p.remove(SparkShapes.RDD_KEY);
    p.remove(SparkShapes.TASK_KEY);
  }
}
