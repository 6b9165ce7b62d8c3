package dev.effectful.agent.installer;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

import java.util.ArrayList;
import java.util.List;

/**
 * The code of a tool's wrapper ({@link FirstLoadWeaver}): exactly what {@link ToolAdvice} does
 * around the body, written out as bytecode.
 *
 * <pre>
 * Object call = null; Object[] args = null; boolean skip = false; R ret = default; Throwable thrown = null;
 * try {                                      // suppress = Throwable
 *     call = Bridge.enter(Owner.class, "name(desc)", this|null, new Object[] {params});
 *     if (call != null) { args = Bridge.arguments(call, new Object[] {params}); params = (cast) args[i]; }
 *     skip = Bridge.skipBody(call);
 * } catch (Throwable t) { skip = false; }
 * if (!skip) { try { ret = effectful$body$name(params); } catch (Throwable t) { thrown = t; } }
 * try {                                      // suppress = Throwable
 *     if (call != null) { Object v = Bridge.exitValue(call, box(ret), thrown); thrown = Bridge.exitThrown(call); ret = (cast) v; }
 * } catch (Throwable t) { }
 * if (thrown != null) throw thrown;
 * return ret;
 * </pre>
 * Every local is set before the first branch, so each stack map frame has the same locals and is
 * written by hand: no frame computation, which would need the class hierarchy (class loading).
 */
final class ToolWrapperCode {

    private static final String BRIDGE = "dev/effectful/agent/bridge/Bridge";
    private static final String OBJECT = "java/lang/Object";
    private static final String OBJECTS = "[Ljava/lang/Object;";
    private static final String THROWABLE = "java/lang/Throwable";

    private final String owner;
    private final boolean isStatic;
    private final String name;
    private final String descriptor;
    private final Type[] params;
    private final Type returns;
    private final int call;
    private final int args;
    private final int skip;
    private final int ret;
    private final int thrown;
    private final Object[] frameLocals;
    /** The bridge's entry and exit: their async forms for a tool returning a promise (known from the descriptor). */
    private final String enterMethod;
    private final String exitMethod;

    ToolWrapperCode(String owner, int access, String name, String descriptor) {
        boolean async = dev.effectful.runtime.tool.AsyncShape.ofDescriptor(descriptor) != null;
        this.enterMethod = async ? "enterAsync" : "enter";
        this.exitMethod = async ? "exitValueAsync" : "exitValue";
        this.owner = owner;
        this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
        this.name = name;
        this.descriptor = descriptor;
        this.params = Type.getArgumentTypes(descriptor);
        this.returns = Type.getReturnType(descriptor);
        List<Object> locals = new ArrayList<>();
        int slot = 0;
        if (!isStatic) {
            locals.add(owner);
            slot++;
        }
        for (Type p : params) {
            locals.add(frameType(p));
            slot += p.getSize();
        }
        call = slot++;
        locals.add(OBJECT);
        args = slot++;
        locals.add(OBJECTS);
        skip = slot++;
        locals.add(Opcodes.INTEGER);
        ret = slot;
        if (returns.getSort() != Type.VOID) {
            locals.add(frameType(returns));
            slot += returns.getSize();
        }
        thrown = slot++;
        locals.add(THROWABLE);
        frameLocals = locals.toArray();
    }

    void emit(MethodVisitor mv) {
        Label enterStart = new Label();
        Label enterEnd = new Label();
        Label enterHandler = new Label();
        Label bodyStart = new Label();
        Label bodyEnd = new Label();
        Label bodyHandler = new Label();
        Label exitStart = new Label();
        Label exitEnd = new Label();
        Label exitHandler = new Label();
        Label exit = new Label();
        Label done = new Label();
        mv.visitCode();
        mv.visitTryCatchBlock(enterStart, enterEnd, enterHandler, THROWABLE);
        mv.visitTryCatchBlock(bodyStart, bodyEnd, bodyHandler, THROWABLE);
        mv.visitTryCatchBlock(exitStart, exitEnd, exitHandler, THROWABLE);
        initLocals(mv);
        enter(mv, enterStart, enterEnd, enterHandler);
        body(mv, bodyStart, bodyEnd, bodyHandler, exit);
        exit(mv, exit, exitStart, exitEnd, exitHandler, done);
        rethrowOrReturn(mv, done);
        mv.visitMaxs(maxStack(), thrown + 1);
    }

    /** Every local set before the first branch, so that each frame has the same locals. */
    private void initLocals(MethodVisitor mv) {
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, call);
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, args);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, skip);
        if (returns.getSort() != Type.VOID) {
            pushDefault(mv, returns);
            mv.visitVarInsn(returns.getOpcode(Opcodes.ISTORE), ret);
        }
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
    }

    /** {@code call = Bridge.enter(...)}, the arguments the runtime hands back, {@code skip}; a throw skips nothing. */
    private void enter(MethodVisitor mv, Label enterStart, Label enterEnd, Label enterHandler) {
        Label argumentsDone = new Label();
        Label afterEnter = new Label();
        mv.visitLabel(enterStart);
        mv.visitLdcInsn(Type.getObjectType(owner));
        mv.visitLdcInsn(name + descriptor);
        if (isStatic) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
        }
        pushArguments(mv);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, enterMethod,
                "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitVarInsn(Opcodes.ASTORE, call);
        mv.visitVarInsn(Opcodes.ALOAD, call);
        mv.visitJumpInsn(Opcodes.IFNULL, argumentsDone);
        mv.visitVarInsn(Opcodes.ALOAD, call);
        pushArguments(mv);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "arguments",
                "(Ljava/lang/Object;[Ljava/lang/Object;)[Ljava/lang/Object;", false);
        mv.visitVarInsn(Opcodes.ASTORE, args);
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < params.length; i++) {
            mv.visitVarInsn(Opcodes.ALOAD, args);
            pushInt(mv, i);
            mv.visitInsn(Opcodes.AALOAD);
            fromObject(mv, params[i]);
            mv.visitVarInsn(params[i].getOpcode(Opcodes.ISTORE), slot);
            slot += params[i].getSize();
        }
        mv.visitLabel(argumentsDone);
        frame(mv);
        mv.visitVarInsn(Opcodes.ALOAD, call);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "skipBody", "(Ljava/lang/Object;)Z", false);
        mv.visitVarInsn(Opcodes.ISTORE, skip);
        mv.visitLabel(enterEnd);
        mv.visitJumpInsn(Opcodes.GOTO, afterEnter);
        mv.visitLabel(enterHandler);
        frameWithThrowable(mv);
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, skip);
        mv.visitLabel(afterEnter);
        frame(mv);
    }

    /** The body, unless the runtime answers in its place (ret and thrown keep their defaults then). */
    private void body(MethodVisitor mv, Label bodyStart, Label bodyEnd, Label bodyHandler, Label exit) {
        mv.visitVarInsn(Opcodes.ILOAD, skip);
        mv.visitJumpInsn(Opcodes.IFNE, exit);
        mv.visitLabel(bodyStart);
        int slot = 0;
        if (!isStatic) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            slot = 1;
        }
        for (Type p : params) {
            mv.visitVarInsn(p.getOpcode(Opcodes.ILOAD), slot);
            slot += p.getSize();
        }
        mv.visitMethodInsn(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner,
                FirstLoadWeaver.BODY_PREFIX + name, descriptor, false);
        if (returns.getSort() != Type.VOID) {
            mv.visitVarInsn(returns.getOpcode(Opcodes.ISTORE), ret);
        }
        mv.visitLabel(bodyEnd);
        mv.visitJumpInsn(Opcodes.GOTO, exit);
        mv.visitLabel(bodyHandler);
        frameWithThrowable(mv);
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
    }

    /** {@code Bridge.exitValue} and {@code exitThrown}: what the caller gets; a throw in them changes nothing. */
    private void exit(MethodVisitor mv, Label exit, Label exitStart, Label exitEnd, Label exitHandler, Label done) {
        mv.visitLabel(exit);
        frame(mv);
        mv.visitLabel(exitStart);
        mv.visitVarInsn(Opcodes.ALOAD, call);
        mv.visitJumpInsn(Opcodes.IFNULL, exitEnd);
        mv.visitVarInsn(Opcodes.ALOAD, call);
        if (returns.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            mv.visitVarInsn(returns.getOpcode(Opcodes.ILOAD), ret);
            box(mv, returns);
        }
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, exitMethod,
                "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)Ljava/lang/Object;", false);
        // thrown first: if unboxing the value fails, the caller must still see the outcome
        mv.visitVarInsn(Opcodes.ALOAD, call);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "exitThrown", "(Ljava/lang/Object;)Ljava/lang/Throwable;", false);
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        if (returns.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.POP);
        } else {
            fromObject(mv, returns);
            mv.visitVarInsn(returns.getOpcode(Opcodes.ISTORE), ret);
        }
        mv.visitLabel(exitEnd);
        frame(mv);
        mv.visitJumpInsn(Opcodes.GOTO, done);
        mv.visitLabel(exitHandler);
        frameWithThrowable(mv);
        mv.visitInsn(Opcodes.POP);
    }

    /** {@code if (thrown != null) throw thrown; return ret;} */
    private void rethrowOrReturn(MethodVisitor mv, Label done) {
        Label normal = new Label();
        mv.visitLabel(done);
        frame(mv);
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitJumpInsn(Opcodes.IFNULL, normal);
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitLabel(normal);
        frame(mv);
        if (returns.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.RETURN);
        } else {
            mv.visitVarInsn(returns.getOpcode(Opcodes.ILOAD), ret);
            mv.visitInsn(returns.getOpcode(Opcodes.IRETURN));
        }
    }

    /** The deepest the operand stack gets: the arguments array being filled, or the body's call. */
    private int maxStack() {
        int argumentSlots = isStatic ? 0 : 1;
        for (Type p : params) {
            argumentSlots += p.getSize();
        }
        // enter: class, name, self, array, array(dup), index, value (a long or double takes two)
        return Math.max(8, Math.max(argumentSlots, 4));
    }

    private void pushArguments(MethodVisitor mv) {
        pushInt(mv, params.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < params.length; i++) {
            mv.visitInsn(Opcodes.DUP);
            pushInt(mv, i);
            mv.visitVarInsn(params[i].getOpcode(Opcodes.ILOAD), slot);
            box(mv, params[i]);
            mv.visitInsn(Opcodes.AASTORE);
            slot += params[i].getSize();
        }
    }

    private void frame(MethodVisitor mv) {
        mv.visitFrame(Opcodes.F_FULL, frameLocals.length, frameLocals, 0, new Object[0]);
    }

    private void frameWithThrowable(MethodVisitor mv) {
        mv.visitFrame(Opcodes.F_FULL, frameLocals.length, frameLocals, 1, new Object[] {THROWABLE});
    }

    /** The stack map frame's verification type of a value of type {@code t}. */
    static Object frameType(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
            case Type.FLOAT -> Opcodes.FLOAT;
            case Type.LONG -> Opcodes.LONG;
            case Type.DOUBLE -> Opcodes.DOUBLE;
            default -> t.getInternalName();
        };
    }

    private static void pushDefault(MethodVisitor mv, Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> mv.visitInsn(Opcodes.ICONST_0);
            case Type.FLOAT -> mv.visitInsn(Opcodes.FCONST_0);
            case Type.LONG -> mv.visitInsn(Opcodes.LCONST_0);
            case Type.DOUBLE -> mv.visitInsn(Opcodes.DCONST_0);
            default -> mv.visitInsn(Opcodes.ACONST_NULL);
        }
    }

    private static void pushInt(MethodVisitor mv, int i) {
        if (i <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + i);
        } else if (i <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, i);
        } else {
            mv.visitIntInsn(Opcodes.SIPUSH, i);
        }
    }

    private static void box(MethodVisitor mv, Type t) {
        String wrapper = wrapperOf(t);
        if (wrapper != null) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, wrapper, "valueOf", "(" + t.getDescriptor() + ")L" + wrapper + ";", false);
        }
    }

    /** As Byte Buddy's dynamic typing: a cast to the declared type, or to its wrapper and unboxed. */
    private static void fromObject(MethodVisitor mv, Type t) {
        String wrapper = wrapperOf(t);
        if (wrapper != null) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, wrapper);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, wrapper, t.getClassName() + "Value", "()" + t.getDescriptor(), false);
        } else if (!t.getInternalName().equals(OBJECT)) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, t.getInternalName());
        }
    }

    private static String wrapperOf(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.BYTE -> "java/lang/Byte";
            case Type.CHAR -> "java/lang/Character";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.FLOAT -> "java/lang/Float";
            case Type.LONG -> "java/lang/Long";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
        };
    }
}
