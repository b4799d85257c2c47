/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Weaves {@link HookedFixture} as the driver weaves Spark, loads it in a loader of its own (so the
 * JVM verifies the rewritten class) and calls it: a hook's answer replaces the method's own, no
 * hook or no answer leaves it, and a guarded hook that throws leaves it too, but for a failing JVM.
 */
class EntryHookWeaverTest {

  private static final String FIXTURE = HookedFixture.class.getName();
  private static final String STAGE = "test.coflow.stage";
  private static final String WHERE = "test.coflow.where";
  private static final String RDD = "test.coflow.rdd";
  private static final List<String> KEYS = List.of(STAGE, WHERE, RDD);

  @AfterEach
  void unhook() {
    KEYS.forEach(System.getProperties()::remove);
  }

  private static SparkShapes.Woven woven(
      String method, List<String> parameters, String key, boolean passesThis) {
    return new SparkShapes.Woven(FIXTURE, method, parameters, "java.util.List", key, passesThis);
  }

  private static final List<SparkShapes.Woven> ALL =
      List.of(
          new SparkShapes.Woven(
              FIXTURE, "submit", List.of("java.lang.String", "int"), "void", STAGE, false),
          woven("where", List.of("java.lang.String", "int"), WHERE, false),
          woven("preferred", List.of("java.lang.String"), RDD, true),
          woven("countDown", List.of("java.lang.String", "int"), WHERE, false));

  /** A new instance of the fixture with every method of {@code woven} woven. */
  private static Object wovenFixture(List<SparkShapes.Woven> woven) throws Exception {
    byte[] bytes;
    try (InputStream in =
        HookedFixture.class.getResourceAsStream(HookedFixture.class.getSimpleName() + ".class")) {
      bytes = in.readAllBytes();
    }
    for (SparkShapes.Woven w : woven) {
      bytes = EntryHookWeaver.weave(bytes, w);
    }
    byte[] rewritten = bytes;
    ClassLoader own =
        new ClassLoader(EntryHookWeaverTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(FIXTURE)) {
              return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
              Class<?> c = findLoadedClass(name);
              return c != null ? c : defineClass(name, rewritten, 0, rewritten.length);
            }
          }
        };
    Class<?> type = Class.forName(FIXTURE, true, own);
    assertTrue(type != HookedFixture.class, "loaded from the woven bytes");
    return type.getConstructor().newInstance();
  }

  private static Object call(Object fixture, String method, Object... args) throws Exception {
    for (Method m : fixture.getClass().getMethods()) {
      if (m.getName().equals(method)) {
        try {
          return m.invoke(fixture, args);
        } catch (InvocationTargetException e) {
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw e;
        }
      }
    }
    throw new NoSuchMethodException(method);
  }

  @SuppressWarnings("unchecked")
  private static List<String> submitted(Object fixture) throws Exception {
    return (List<String>) fixture.getClass().getField("submitted").get(fixture);
  }

  @Test
  void withoutHooksEveryMethodRunsAsWritten() throws Exception {
    Object f = wovenFixture(ALL);
    call(f, "submit", "s", 3);
    assertEquals(List.of("s 3"), submitted(f));
    assertEquals(List.of("own d 2"), call(f, "where", "d", 2));
    assertEquals(List.of("own p"), call(f, "preferred", "p"));
    assertEquals(List.of("c 0"), call(f, "countDown", "c", 4));
    System.getProperties().put(WHERE, "not a function");
    assertEquals(List.of("own d 2"), call(f, "where", "d", 2));
  }

  @Test
  void aHookSeesTheArgumentsAndItsAnswerIsReturned() throws Exception {
    Object f = wovenFixture(ALL);
    List<Object> seen = new ArrayList<>();
    BiConsumer<Object, Object> stage = (a, b) -> seen.add(a + "/" + b);
    BiFunction<Object, Object, Object> where =
        (a, b) -> b.equals(7) ? null : List.of("hook " + a + " " + b);
    BiFunction<Object, Object, Object> rdd =
        (self, p) -> {
          seen.add(self);
          return List.of("hook " + p);
        };
    System.getProperties().put(STAGE, stage);
    System.getProperties().put(WHERE, where);
    System.getProperties().put(RDD, rdd);

    call(f, "submit", "s", 3);
    assertEquals(List.of("s 3"), submitted(f), "a void method still runs its own code after");
    assertEquals("s/3", seen.get(0), "the int is boxed");
    assertEquals(List.of("hook d 2"), call(f, "where", "d", 2));
    assertEquals(List.of("own d 7"), call(f, "where", "d", 7), "null: the method's own answer");
    assertEquals(List.of("hook p"), call(f, "preferred", "p"));
    assertSame(f, seen.get(1), "this is passed");
    assertEquals(List.of("hook c 4"), call(f, "countDown", "c", 4));
    assertEquals(List.of("c 0"), call(f, "countDown", "c", 7));
  }

  @Test
  void aGuardedHookThatFailsLeavesTheMethodsOwnBehaviour() throws Exception {
    Object f = wovenFixture(ALL);
    for (Throwable t :
        List.of(
            new IllegalStateException("a bug"),
            new IOException("checked"),
            new NoClassDefFoundError("a class"),
            new AssertionError("an assertion"))) {
      hook(t);
      call(f, "submit", "s", 1);
      assertEquals(List.of("own d 2"), call(f, "where", "d", 2), t.toString());
      assertEquals(List.of("own p"), call(f, "preferred", "p"), t.toString());
    }
    assertEquals(4, submitted(f).size());
    System.getProperties()
        .put(WHERE, PreferredLocationsHook.guarded((a, b) -> "not a list", List.class));
    assertEquals(List.of("own d 2"), call(f, "where", "d", 2), "an answer of another type");
  }

  @Test
  void aFailingJvmIsNeverHidden() throws Exception {
    Object f = wovenFixture(ALL);
    for (VirtualMachineError e :
        List.of(new OutOfMemoryError("test"), new StackOverflowError("test"))) {
      hook(e);
      assertThrows(e.getClass(), () -> call(f, "submit", "s", 1));
      assertThrows(e.getClass(), () -> call(f, "where", "d", 2));
      assertThrows(e.getClass(), () -> call(f, "preferred", "p"));
    }
  }

  private static void hook(Throwable thrown) {
    System.getProperties()
        .put(
            STAGE,
            PreferredLocationsHook.guarded(
                (BiConsumer<Object, Object>)
                    (s, j) -> {
                      throw sneaky(thrown);
                    }));
    BiFunction<Object, Object, Object> where =
        PreferredLocationsHook.guarded(
            (a, b) -> {
              throw sneaky(thrown);
            },
            List.class);
    System.getProperties().put(WHERE, where);
    System.getProperties().put(RDD, where);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  @Test
  void aMethodItCannotWeaveIsNamed() {
    IllegalStateException missing =
        assertThrows(
            IllegalStateException.class,
            () -> wovenFixture(List.of(woven("gone", List.of("java.lang.String"), RDD, true))));
    assertEquals(FIXTURE + ".gone[java.lang.String] not found", missing.getMessage());
    IllegalStateException wide =
        assertThrows(
            IllegalStateException.class,
            () ->
                wovenFixture(
                    List.of(woven("wide", List.of("long", "java.lang.String"), RDD, false))));
    assertTrue(wide.getMessage().contains("passes a primitive other than int"), wide.getMessage());
  }

  @Test
  void aWovenClassHoldsItsHooksKeySoThatASecondCopyOfThePluginLeavesIt() throws Exception {
    byte[] bytes;
    try (InputStream in =
        HookedFixture.class.getResourceAsStream(HookedFixture.class.getSimpleName() + ".class")) {
      bytes = in.readAllBytes();
    }
    SparkShapes.Woven where = ALL.get(1);
    assertFalse(PreferredLocationsHook.holds(bytes, where.key()), "the class as compiled");
    assertTrue(PreferredLocationsHook.holds(EntryHookWeaver.weave(bytes, where), where.key()));
  }
}
