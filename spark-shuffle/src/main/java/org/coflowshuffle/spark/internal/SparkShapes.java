/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The Spark methods hooks are woven into, checked before weaving: Spark keeps them private, so
 * another Spark version may have renamed or reshaped them, and a hook matched to nothing would
 * leave the plugin placing nothing without a word. The plugin is built for Spark 4.1; with a Spark
 * whose shapes differ, placement stays Spark's and the driver's log says which method is missing.
 */
final class SparkShapes {

  /** {@code BiConsumer<Stage, Integer jobId>}: a stage is being submitted for a job. */
  static final String STAGE_KEY = "org.coflowshuffle.spark.stage";

  /**
   * {@code BiFunction<RDD, Partition, Seq or null>}: where a partition of an RDD that reads a
   * shuffle runs ({@code ShuffledRDD}, SQL's {@code ShuffledRowRDD}).
   */
  static final String RDD_KEY = "org.coflowshuffle.spark.rdd";

  /**
   * {@code BiFunction<RDD, Integer partition, Seq of TaskLocation or null>}: where the DAG
   * scheduler runs a partition, asked of each RDD of its lineage in turn.
   */
  static final String TASK_KEY = "org.coflowshuffle.spark.task";

  /**
   * A method a hook goes into ({@link EntryHookWeaver}): its class, name, parameter types and
   * return type; the system property its hook is kept under; whether the hook gets {@code this} and
   * the first argument rather than the first two arguments.
   */
  record Woven(
      String className,
      String method,
      List<String> parameters,
      String returns,
      String key,
      boolean passesThis) {

    /** The method's JVM descriptor, from its Java type names. */
    String descriptor() {
      StringBuilder d = new StringBuilder("(");
      for (String p : parameters) {
        d.append(type(p).getDescriptor());
      }
      return d.append(')').append(type(returns).getDescriptor()).toString();
    }

    private static Type type(String javaName) {
      return switch (javaName) {
        case "void" -> Type.VOID_TYPE;
        case "boolean" -> Type.BOOLEAN_TYPE;
        case "byte" -> Type.BYTE_TYPE;
        case "char" -> Type.CHAR_TYPE;
        case "short" -> Type.SHORT_TYPE;
        case "int" -> Type.INT_TYPE;
        case "long" -> Type.LONG_TYPE;
        case "float" -> Type.FLOAT_TYPE;
        case "double" -> Type.DOUBLE_TYPE;
        default -> Type.getObjectType(javaName.replace('.', '/'));
      };
    }
  }

  /**
   * Where the hooks go: only into classes Spark loads after the plugin starts, so that they are
   * woven as they load, not rewritten once loaded (which makes the JVM compile its code again).
   * {@code DAGScheduler.submitMissingTasks}: a stage is about to get its tasks, the moment its
   * coflow (every shuffle it reads) is complete and is placed. {@code getPreferredLocations} of
   * {@code ShuffledRDD} and SQL's {@code ShuffledRowRDD}: one partition of an RDD that reads a
   * shuffle (the questions they would put to {@code MapOutputTrackerMaster}, which Spark loads
   * before any plugin). {@code DAGScheduler.getPreferredLocsInternal}: for {@code CoGroupedRDD}
   * (RDD joins) and {@code SubtractedRDD}, which inherit {@code RDD}'s answer of no preference and
   * ask nobody.
   */
  static final List<Woven> WOVEN =
      List.of(
          new Woven(
              "org.apache.spark.scheduler.DAGScheduler",
              "submitMissingTasks",
              List.of("org.apache.spark.scheduler.Stage", "int"),
              "void",
              STAGE_KEY,
              false),
          new Woven(
              "org.apache.spark.scheduler.DAGScheduler",
              "getPreferredLocsInternal",
              List.of("org.apache.spark.rdd.RDD", "int", "scala.collection.mutable.HashSet"),
              "scala.collection.immutable.Seq",
              TASK_KEY,
              false),
          new Woven(
              "org.apache.spark.rdd.ShuffledRDD",
              "getPreferredLocations",
              List.of("org.apache.spark.Partition"),
              "scala.collection.immutable.Seq",
              RDD_KEY,
              true),
          new Woven(
              "org.apache.spark.sql.execution.ShuffledRowRDD",
              "getPreferredLocations",
              List.of("org.apache.spark.Partition"),
              "scala.collection.immutable.Seq",
              RDD_KEY,
              true));

  private SparkShapes() {}

  /**
   * Why the advice cannot be woven into the Spark that {@code loader} sees, in one line naming the
   * first method missing or reshaped; null when every one is there. Read from the class files, not
   * by reflection: listing a class's methods by reflection loads every type their signatures name
   * (178 classes for these three, a fifth of a second of the driver's start).
   */
  static String mismatch(List<Woven> needed, ClassLoader loader) {
    for (Woven w : needed) {
      boolean declared;
      try (InputStream in =
          loader.getResourceAsStream(w.className().replace('.', '/') + ".class")) {
        if (in == null) {
          return "class " + w.className() + " not found";
        }
        declared = declares(in.readAllBytes(), w);
      } catch (IOException | IllegalArgumentException e) { // or newer than this ASM reads
        return "class " + w.className() + " not readable: " + e.getMessage();
      }
      if (!declared) {
        return w.returns()
            + " "
            + w.className()
            + "."
            + w.method()
            + "("
            + String.join(", ", w.parameters())
            + ") not found";
      }
    }
    return null;
  }

  private static boolean declares(byte[] classFile, Woven w) {
    String descriptor = w.descriptor();
    boolean[] found = new boolean[1];
    new ClassReader(classFile)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String signature, String[] exceptions) {
                found[0] |= name.equals(w.method()) && desc.equals(descriptor);
                return null;
              }
            },
            ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return found[0];
  }
}
