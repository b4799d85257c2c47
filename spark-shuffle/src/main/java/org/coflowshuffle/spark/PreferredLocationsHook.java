package org.coflowshuffle.spark;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.util.function.BiFunction;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * Makes Spark ask the coordinator where reduce tasks run. Spark has no public hook for this: the
 * DAG scheduler takes a reduce task's preferred locations from {@code
 * MapOutputTrackerMaster.getPreferredLocationsForShuffle}, which both {@code ShuffledRDD} and SQL's
 * {@code ShuffledRowRDD} call. This class weaves {@link PreferredLocationsAdvice} into that method
 * of the running driver JVM (a self-attached agent, so no extra JVM flag), once per JVM; each
 * application then sets or clears its placer.
 */
final class PreferredLocationsHook {

  private static final String TRACKER = "org.apache.spark.MapOutputTrackerMaster";
  private static boolean woven;

  private PreferredLocationsHook() {}

  /**
   * Weaves the advice if not yet done and makes {@code placer} answer.
   *
   * @throws IllegalStateException when the JVM refuses the agent (for example a JRE without the
   *     attach module); Spark's placement then stays
   */
  static synchronized void install(BiFunction<Object, Object, Object> placer) {
    if (!woven) {
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
          .type(named(TRACKER))
          .transform(
              (builder, type, loader, module, domain) ->
                  builder.visit(
                      Advice.to(PreferredLocationsAdvice.class)
                          .on(named("getPreferredLocationsForShuffle").and(takesArguments(2)))))
          .installOn(inst);
      woven = true;
    }
    System.getProperties().put(PreferredLocationsAdvice.KEY, placer);
  }

  /** Spark's own placement again, for every later call. */
  static synchronized void uninstall() {
    System.getProperties().remove(PreferredLocationsAdvice.KEY);
  }
}
