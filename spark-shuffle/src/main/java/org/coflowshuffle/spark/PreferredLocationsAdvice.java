package org.coflowshuffle.spark;

import java.util.function.BiFunction;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Code woven into the exit of {@code MapOutputTrackerMaster.getPreferredLocationsForShuffle}: when
 * the coordinator has a placement for that reducer, it replaces Spark's answer.
 *
 * <p>The woven code runs in Spark's class loader, which cannot see this plugin's classes (they come
 * from {@code --jars}). So it reaches the placer only through JDK types: a {@link BiFunction} kept
 * in the system properties under {@link #KEY}. Any exception inside is dropped, leaving Spark's own
 * answer.
 */
public final class PreferredLocationsAdvice {

  /** System property holding the placer, a {@code BiFunction<dependency, reducer, Seq or null>}. */
  public static final String KEY = "org.coflowshuffle.spark.placer";

  private PreferredLocationsAdvice() {}

  @SuppressWarnings({"unchecked", "UnusedVariable"})
  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(
      @Advice.Argument(0) Object dependency,
      @Advice.Argument(1) int reducer,
      @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object preferred) {
    Object placer = System.getProperties().get(KEY);
    if (placer instanceof BiFunction) {
      Object chosen = ((BiFunction<Object, Object, Object>) placer).apply(dependency, reducer);
      if (chosen != null) {
        preferred = chosen;
      }
    }
  }
}
