/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import net.bytebuddy.asm.Advice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The code woven into Spark, called as it runs there: a hook that fails leaves Spark's behaviour
 * alone, but a JVM that is failing is never hidden from Spark.
 */
class PreferredLocationsAdviceTest {

  @AfterEach
  void unhook() {
    for (String key :
        List.of(
            PreferredLocationsAdvice.STAGE_KEY,
            PreferredLocationsAdvice.SHUFFLE_KEY,
            PreferredLocationsAdvice.RDD_KEY)) {
      System.getProperties().remove(key);
    }
  }

  private static void hook(Throwable thrown) {
    BiConsumer<Object, Object> stage =
        (s, j) -> {
          throw sneaky(thrown);
        };
    BiFunction<Object, Object, Object> where =
        (a, b) -> {
          throw sneaky(thrown);
        };
    System.getProperties().put(PreferredLocationsAdvice.STAGE_KEY, stage);
    System.getProperties().put(PreferredLocationsAdvice.SHUFFLE_KEY, where);
    System.getProperties().put(PreferredLocationsAdvice.RDD_KEY, where);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static void callAll() {
    PreferredLocationsAdvice.StageSubmitted.enter("stage", 1);
    PreferredLocationsAdvice.ShuffleReducer.exit("dependency", 0, "spark's");
    PreferredLocationsAdvice.RddPartition.exit("rdd", "partition", "spark's");
  }

  @Test
  void aFailingHookLeavesSparksBehaviour() {
    for (Throwable t :
        List.of(
            new IllegalStateException("a bug"),
            new java.io.IOException("checked"),
            new NoClassDefFoundError("a class"),
            new AssertionError("an assertion"))) {
      hook(t);
      assertDoesNotThrow(PreferredLocationsAdviceTest::callAll, t.toString());
    }
  }

  @Test
  void aFailingJvmIsNeverHidden() {
    for (VirtualMachineError e :
        List.of(new OutOfMemoryError("test"), new StackOverflowError("test"))) {
      hook(e);
      assertThrows(e.getClass(), () -> PreferredLocationsAdvice.StageSubmitted.enter("stage", 1));
      assertThrows(
          e.getClass(),
          () -> PreferredLocationsAdvice.ShuffleReducer.exit("dependency", 0, "spark's"));
      assertThrows(
          e.getClass(),
          () -> PreferredLocationsAdvice.RddPartition.exit("rdd", "partition", "spark's"));
    }
  }

  @Test
  void byteBuddySuppressesNothingItself() throws Exception {
    // Woven, a suppress = Throwable.class would swallow a VirtualMachineError before the code's
    // own catch could let it through.
    assertEquals(
        "NoExceptionHandler",
        PreferredLocationsAdvice.StageSubmitted.class
            .getDeclaredMethod("enter", Object.class, int.class)
            .getAnnotation(Advice.OnMethodEnter.class)
            .suppress()
            .getSimpleName());
    assertEquals(
        "NoExceptionHandler",
        PreferredLocationsAdvice.ShuffleReducer.class
            .getDeclaredMethod("exit", Object.class, int.class, Object.class)
            .getAnnotation(Advice.OnMethodExit.class)
            .suppress()
            .getSimpleName());
    assertEquals(
        "NoExceptionHandler",
        PreferredLocationsAdvice.RddPartition.class
            .getDeclaredMethod("exit", Object.class, Object.class, Object.class)
            .getAnnotation(Advice.OnMethodExit.class)
            .suppress()
            .getSimpleName());
  }
}
