/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * Makes Spark's driver ask the coordinator where reduce tasks run. Spark has no public hook for
 * this, so {@link PreferredLocationsAdvice} is woven into the running driver JVM (a self-attached
 * agent, so no extra JVM flag), once per JVM; each application then sets or clears its placer.
 */
public final class PreferredLocationsHook {

  private static boolean woven;

  private PreferredLocationsHook() {}

  /**
   * Weaves the advice if not yet done and makes the placer's three functions answer.
   *
   * @param stage a stage is being submitted for a job: {@code (Stage, Integer jobId)}
   * @param shuffle one reducer's location: {@code (ShuffleDependency, Integer reducer)} to a Scala
   *     {@code Seq} of locations, or null for Spark's own answer
   * @param rdd a partition's location: {@code (RDD, Partition)} to a {@code Seq}, or null
   * @throws IllegalStateException when this Spark lacks a method the advice goes into ({@link
   *     SparkShapes}), or the JVM refuses the agent (for example a JRE without the attach module);
   *     Spark's placement then stays
   */
  public static synchronized void install(
      BiConsumer<Object, Object> stage,
      BiFunction<Object, Object, Object> shuffle,
      BiFunction<Object, Object, Object> rdd) {
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
      Instrumentation inst;
      try {
        inst = ByteBuddyAgent.install();
      } catch (RuntimeException e) {
        throw new IllegalStateException("cannot attach an agent to this JVM: " + e.getMessage(), e);
      }
      Weaver weaver = new Weaver();
      inst.addTransformer(weaver, true);
      try {
        inst.retransformClasses(weaver.targets(PreferredLocationsHook.class.getClassLoader()));
      } catch (ClassNotFoundException | UnmodifiableClassException e) {
        inst.removeTransformer(weaver);
        throw new IllegalStateException("cannot weave Spark's placement: " + e, e);
      }
      if (weaver.failure != null) {
        inst.removeTransformer(weaver);
        throw new IllegalStateException(
            "cannot weave Spark's placement: " + weaver.failure, weaver.failure);
      }
      woven = true;
    }
    Properties p = System.getProperties();
    p.put(PreferredLocationsAdvice.STAGE_KEY, stage);
    p.put(PreferredLocationsAdvice.SHUFFLE_KEY, shuffle);
    p.put(PreferredLocationsAdvice.RDD_KEY, rdd);
  }

  /**
   * Puts the advice into the three Spark classes and nothing else. A transformer of its own, not
   * Byte Buddy's {@code AgentBuilder}: that one matches every class loaded before and after (tens
   * of thousands in a driver, Spark SQL's generated code included), this one compares one name per
   * class. It stays registered, so that a later retransformation by another agent keeps the advice,
   * and it rewrites the bytes it is given, so that it keeps theirs.
   */
  private static final class Weaver implements ClassFileTransformer {

    /** What goes where, by the JVM's internal name of the class. */
    private final Map<String, SparkShapes.Woven> byName =
        SparkShapes.WOVEN.stream()
            .collect(Collectors.toMap(w -> w.className().replace('.', '/'), w -> w));

    private volatile Throwable failure;

    Class<?>[] targets(ClassLoader loader) throws ClassNotFoundException {
      Class<?>[] types = new Class<?>[SparkShapes.WOVEN.size()];
      for (int i = 0; i < types.length; i++) {
        types[i] = Class.forName(SparkShapes.WOVEN.get(i).className(), false, loader);
      }
      return types;
    }

    @Override
    public byte[] transform(
        ClassLoader loader,
        String internalName,
        Class<?> redefined,
        ProtectionDomain domain,
        byte[] bytes) {
      SparkShapes.Woven method = internalName == null ? null : byName.get(internalName);
      if (method == null) {
        return null;
      }
      try {
        String name = method.className();
        ClassFileLocator locator =
            new ClassFileLocator.Compound(
                ClassFileLocator.Simple.of(name, bytes),
                ClassFileLocator.ForClassLoader.of(loader));
        return new ByteBuddy()
            .with(Implementation.Context.Disabled.Factory.INSTANCE)
            .decorate(TypePool.Default.of(locator).describe(name).resolve(), locator)
            .visit(
                Advice.to(method.advice())
                    .on(named(method.method()).and(takesArguments(method.parameters().size()))))
            .make()
            .getBytes();
      } catch (RuntimeException | LinkageError e) {
        failure = e; // the JVM drops what a transformer throws; install reports it
        return null;
      }
    }
  }

  /** Spark's own placement again, for every later call. */
  public static synchronized void uninstall() {
    Properties p = System.getProperties();
    p.remove(PreferredLocationsAdvice.STAGE_KEY);
    p.remove(PreferredLocationsAdvice.SHUFFLE_KEY);
    p.remove(PreferredLocationsAdvice.RDD_KEY);
  }
}
