/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

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
      new AgentBuilder.Default()
          .disableClassFormatChanges()
          .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
          .with(AgentBuilder.RedefinitionStrategy.Listener.ErrorEscalating.FAIL_FAST)
          .type(named("org.apache.spark.scheduler.DAGScheduler"))
          .transform(
              (builder, type, loader, module, domain) ->
                  builder.visit(
                      Advice.to(PreferredLocationsAdvice.StageSubmitted.class)
                          .on(named("submitMissingTasks").and(takesArguments(2)))))
          .type(named("org.apache.spark.MapOutputTrackerMaster"))
          .transform(
              (builder, type, loader, module, domain) ->
                  builder.visit(
                      Advice.to(PreferredLocationsAdvice.ShuffleReducer.class)
                          .on(named("getPreferredLocationsForShuffle").and(takesArguments(2)))))
          .type(named("org.apache.spark.rdd.RDD"))
          .transform(
              (builder, type, loader, module, domain) ->
                  builder.visit(
                      Advice.to(PreferredLocationsAdvice.RddPartition.class)
                          .on(named("getPreferredLocations").and(takesArguments(1)))))
          .installOn(inst);
      woven = true;
    }
    Properties p = System.getProperties();
    p.put(PreferredLocationsAdvice.STAGE_KEY, stage);
    p.put(PreferredLocationsAdvice.SHUFFLE_KEY, shuffle);
    p.put(PreferredLocationsAdvice.RDD_KEY, rdd);
  }

  /** Spark's own placement again, for every later call. */
  public static synchronized void uninstall() {
    Properties p = System.getProperties();
    p.remove(PreferredLocationsAdvice.STAGE_KEY);
    p.remove(PreferredLocationsAdvice.SHUFFLE_KEY);
    p.remove(PreferredLocationsAdvice.RDD_KEY);
  }
}
