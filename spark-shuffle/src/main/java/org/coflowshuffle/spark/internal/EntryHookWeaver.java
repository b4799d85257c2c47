/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.spark.internal;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Rewrites one method of a class file so that, on entry, it asks a hook kept in the system
 * properties under {@link SparkShapes.Woven#key}: a {@code BiConsumer} for a void method, called
 * before the method's own code; else a {@code BiFunction} whose answer, when not null, the method
 * returns without running its own code. The hook gets the method's first two arguments, or {@code
 * this} and the first ({@link SparkShapes.Woven#passesThis}), an {@code int} boxed. With no hook of
 * that type under the key, the method runs as written.
 *
 * <p>The woven code runs in Spark's class loader, which cannot see this plugin's classes (they come
 * from {@code --jars}): it names JDK types only. It catches nothing, so the hooks put under the
 * keys must not throw ({@link PreferredLocationsHook} guards them) and a function's answer must be
 * of the method's return type.
 *
 * <p>Plain ASM, one pass, so that weaving costs the driver's start little: the code added declares
 * its one stack map frame itself (the arguments at entry), so no class is looked up, where a
 * library that resolves the class's hierarchy reads hundreds of class files through Spark's class
 * path; and the class's other methods are copied as they are.
 */
final class EntryHookWeaver {

  private static final String OBJECT = "java/lang/Object";
  private static final String PAIR = "(Ljava/lang/Object;Ljava/lang/Object;)";

  private EntryHookWeaver() {}

  /**
   * The class file {@code bytes} with the hook of {@code woven} at the entry of its method.
   *
   * @throws IllegalStateException when the class has no such method, or it is static, abstract or
   *     native, or returns or passes a primitive other than an {@code int} argument
   */
  static byte[] weave(byte[] bytes, SparkShapes.Woven woven) {
    ClassReader reader = new ClassReader(bytes);
    ClassWriter writer = new ClassWriter(reader, 0); // unchanged methods are copied as they are
    String descriptor = woven.descriptor();
    boolean[] found = new boolean[1];
    reader.accept(
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, desc, signature, exceptions);
            if (!name.equals(woven.method()) || !desc.equals(descriptor)) {
              return next;
            }
            if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
              throw new IllegalStateException(where(woven) + " has no code of its own to weave");
            }
            found[0] = true;
            return new EntryCall(next, reader.getClassName(), woven, Type.getType(desc));
          }
        },
        0);
    if (!found[0]) {
      throw new IllegalStateException(where(woven) + " not found");
    }
    return writer.toByteArray();
  }

  private static String where(SparkShapes.Woven w) {
    return w.className() + "." + w.method() + w.parameters();
  }

  /** Adds the call to the hook before the method's first instruction. */
  private static final class EntryCall extends MethodVisitor {
    private final String owner;
    private final SparkShapes.Woven woven;
    private final Type method;

    EntryCall(MethodVisitor next, String owner, SparkShapes.Woven woven, Type method) {
      super(Opcodes.ASM9, next);
      this.owner = owner;
      this.woven = woven;
      this.method = method;
      if (method.getReturnType().getSort() != Type.VOID && !isReference(method.getReturnType())) {
        throw new IllegalStateException(where(woven) + " returns a primitive");
      }
    }

    @Override
    public void visitCode() {
      super.visitCode();
      boolean consumer = method.getReturnType().getSort() == Type.VOID;
      String hook = consumer ? "java/util/function/BiConsumer" : "java/util/function/BiFunction";
      List<Value> values = passed(); // checked before any code is added
      Label none = new Label();
      call(Opcodes.INVOKESTATIC, "java/lang/System", "getProperties", "()Ljava/util/Properties;");
      super.visitLdcInsn(woven.key());
      call(
          Opcodes.INVOKEVIRTUAL,
          "java/util/Properties",
          "get",
          "(L" + OBJECT + ";)L" + OBJECT + ";");
      super.visitInsn(Opcodes.DUP);
      super.visitTypeInsn(Opcodes.INSTANCEOF, hook);
      super.visitJumpInsn(Opcodes.IFEQ, none);
      super.visitTypeInsn(Opcodes.CHECKCAST, hook);
      for (Value v : values) {
        if (isReference(v.type)) {
          super.visitVarInsn(Opcodes.ALOAD, v.slot);
        } else {
          super.visitVarInsn(Opcodes.ILOAD, v.slot);
          call(Opcodes.INVOKESTATIC, "java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;");
        }
      }
      if (consumer) {
        super.visitMethodInsn(Opcodes.INVOKEINTERFACE, hook, "accept", PAIR + "V", true);
        super.visitInsn(Opcodes.ACONST_NULL); // joins the path without a hook: one value to pop
      } else {
        super.visitMethodInsn(
            Opcodes.INVOKEINTERFACE, hook, "apply", PAIR + "L" + OBJECT + ";", true);
        super.visitInsn(Opcodes.DUP);
        super.visitJumpInsn(Opcodes.IFNULL, none);
        super.visitTypeInsn(Opcodes.CHECKCAST, method.getReturnType().getInternalName());
        super.visitInsn(Opcodes.ARETURN);
      }
      super.visitLabel(none); // the hook's answer or null on the stack, locals as at entry
      Object[] locals = entryLocals();
      super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {OBJECT});
      super.visitInsn(Opcodes.POP);
    }

    private void call(int opcode, String type, String name, String descriptor) {
      super.visitMethodInsn(opcode, type, name, descriptor, false);
    }

    /** A value passed to the hook: its local variable slot and type. */
    private record Value(int slot, Type type) {}

    /** The two values passed: this and the first argument, or the first two arguments. */
    private List<Value> passed() {
      List<Value> values = new ArrayList<>();
      if (woven.passesThis()) {
        values.add(new Value(0, Type.getObjectType(owner)));
      }
      int slot = 1;
      for (Type a : method.getArgumentTypes()) {
        if (values.size() == 2) {
          break;
        }
        if (!isReference(a) && a.getSort() != Type.INT) {
          throw new IllegalStateException(where(woven) + " passes a primitive other than int");
        }
        values.add(new Value(slot, a));
        slot += a.getSize();
      }
      if (values.size() < 2) {
        throw new IllegalStateException(where(woven) + " has too few arguments to pass");
      }
      return values;
    }

    /** The locals at the method's entry, as a stack map frame lists them: this, the arguments. */
    private Object[] entryLocals() {
      List<Object> locals = new ArrayList<>();
      locals.add(owner);
      for (Type a : method.getArgumentTypes()) {
        locals.add(
            switch (a.getSort()) {
              case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
              case Type.LONG -> Opcodes.LONG;
              case Type.FLOAT -> Opcodes.FLOAT;
              case Type.DOUBLE -> Opcodes.DOUBLE;
              case Type.ARRAY -> a.getDescriptor();
              default -> a.getInternalName();
            });
      }
      return locals.toArray();
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      super.visitMaxs(Math.max(maxStack, 3), maxLocals); // the hook and the two values passed
    }

    private static boolean isReference(Type t) {
      return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
    }
  }
}
