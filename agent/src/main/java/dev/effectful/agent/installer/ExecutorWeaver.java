package dev.effectful.agent.installer;

import dev.effectful.agent.installer.ContextPropagation.Action;
import dev.effectful.agent.installer.ContextPropagation.BindAroundRun;
import dev.effectful.agent.installer.ContextPropagation.Capture;
import dev.effectful.agent.installer.ContextPropagation.RedirectCall;
import dev.effectful.agent.installer.ContextPropagation.ReplaceArgument;
import dev.effectful.agent.installer.ContextPropagation.Rule;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlines {@link ContextPropagation}'s actions into a JDK executor class with Byte Buddy's bundled ASM
 * core only (no Advice pipeline, no type pool: nothing is resolved, no class is loaded). It never adds a
 * member or changes a signature, so the same bytes serve a first load and a retransformation.
 *
 * <pre>
 * entry action (argument replacement, capture)      bind around run
 *   try { work = Carrier.submitted(work); }           Object token = null;
 *   catch (Throwable t) { }                           try { token = TaskCarrier.enter(this); } catch (Throwable t) { }
 *   original code                                     try { original code, each return: store the value; goto exit }
 *                                                     catch (Throwable t) { try { exit(token); } catch (Throwable s) { } throw t; }
 *                                                     exit: try { exit(token); } catch (Throwable s) { } return value;
 * </pre>
 * Stack map frames are written by hand: the class is read with expanded frames, the inserted code's
 * frames are the method's entry frame (entry actions) and, for bind around run, every frame of the
 * original code gets the token's new local (slot {@code maxLocals}) appended, so the catch-all over the
 * body type-checks. The inserted handler is registered after the method's own, so theirs still win.
 * The inserted code ends with a {@code nop} so its last frame never shares an offset with the original's
 * first one. A redirected call inserts no code and no frame: one call instruction is swapped for a static
 * call that takes the same receiver and returns the same nothing.
 */
final class ExecutorWeaver {

    private static final int API = Opcodes.ASM9;
    private static final String CARRIER = "dev/effectful/agent/bridge/TaskCarrier";
    private static final String OBJECT = "java/lang/Object";
    private static final String THROWABLE = "java/lang/Throwable";

    private ExecutorWeaver() {
    }

    /** The class rewritten, or null when none of its methods matches a rule. */
    static byte[] weave(byte[] bytes, List<Rule> rules) {
        ClassReader reader = new ClassReader(bytes);
        // bind around run puts its token after the method's own locals: their count is read first
        MaxLocals maxLocals = new MaxLocals(rules);
        reader.accept(maxLocals, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (maxLocals.matched == 0) {
            return null;
        }
        // no COMPUTE_*: frames come expanded from the reader and are written as given (no class hierarchy needed)
        ClassWriter writer = new ClassWriter(reader, 0);
        Rewrite rewrite = new Rewrite(writer, rules, maxLocals.byMethod);
        reader.accept(rewrite, ClassReader.EXPAND_FRAMES);
        if (rewrite.woven != maxLocals.matched) {
            throw new IllegalStateException("matched " + maxLocals.matched + " methods but wove " + rewrite.woven);
        }
        return writer.toByteArray();
    }

    /** The first rule that matches the method (the rules of one class never overlap), or null. */
    static Rule ruleFor(List<Rule> rules, String name, String descriptor) {
        Type[] parameters = Type.getArgumentTypes(descriptor);
        for (Rule r : rules) {
            if (r.matches(name, parameters)) {
                return r;
            }
        }
        return null;
    }

    /** The max_locals of every matched method with code, by name and descriptor. */
    private static final class MaxLocals extends ClassVisitor {
        final Map<String, Integer> byMethod = new HashMap<>();
        private final List<Rule> rules;
        int matched;

        MaxLocals(List<Rule> rules) {
            super(API);
            this.rules = rules;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            // bridges are left alone, as Byte Buddy's method graph left them: they call the method rewritten
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE)) != 0 || ruleFor(rules, name, descriptor) == null) {
                return null;
            }
            matched++;
            String key = name + descriptor;
            return new MethodVisitor(API) {
                @Override
                public void visitMaxs(int maxStack, int maxLocals) {
                    byMethod.put(key, maxLocals);
                }
            };
        }
    }

    private static final class Rewrite extends ClassVisitor {
        private final List<Rule> rules;
        private final Map<String, Integer> maxLocals;
        private String owner;
        int woven;

        Rewrite(ClassVisitor next, List<Rule> rules, Map<String, Integer> maxLocals) {
            super(API, next);
            this.rules = rules;
            this.maxLocals = maxLocals;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            if ((version & 0xFFFF) < Opcodes.V1_7) {
                // older class files may have no stack map frames: the hand-written ones would be the only ones
                throw new IllegalStateException("class file version " + (version & 0xFFFF) + " of " + name);
            }
            owner = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            Integer locals = maxLocals.get(name + descriptor);
            if (locals == null) {
                return next;
            }
            woven++;
            return new Inline(next, owner, access, descriptor, ruleFor(rules, name, descriptor), locals);
        }
    }

    /**
     * Emits the entry code once, just after the method's own exception table (the reader visits it
     * first), then passes the original code through, rewriting frames and returns for bind around run.
     */
    private static final class Inline extends MethodVisitor {
        private final Action action;
        private final int argument;
        private final boolean isStatic;
        private final Type[] parameters;
        private final Type returns;
        private final Object[] entryLocals;
        private final int token;
        private final Label bodyEnd = new Label();
        private final Label onThrow = new Label();
        private final Label onReturn = new Label();
        private final Label[] exitGuards = {new Label(), new Label(), new Label(), new Label(), new Label(), new Label()};
        private boolean started;
        private int redirected;

        Inline(MethodVisitor next, String owner, int access, String descriptor, Rule rule, int maxLocals) {
            super(API, next);
            this.action = rule.action();
            this.argument = rule.argument();
            this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
            this.parameters = Type.getArgumentTypes(descriptor);
            this.returns = Type.getReturnType(descriptor);
            this.token = maxLocals;
            List<Object> locals = new ArrayList<>();
            if (!isStatic) {
                locals.add(owner);
            }
            for (Type p : parameters) {
                locals.add(ToolWrapperCode.frameType(p));
            }
            this.entryLocals = locals.toArray();
        }

        private boolean binds() {
            return action instanceof BindAroundRun;
        }

        private int slotOf(int argument) {
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < argument; i++) {
                slot += parameters[i].getSize();
            }
            return slot;
        }

        /** Called before anything of the original code but after its exception table. */
        private void start() {
            if (started) {
                return;
            }
            started = true;
            if (action instanceof RedirectCall) {
                return;
            }
            Label tryStart = new Label();
            Label tryEnd = new Label();
            Label handler = new Label();
            Label resume = new Label();
            Object[] locals = binds() ? withToken(entryLocals) : entryLocals;
            super.visitTryCatchBlock(tryStart, tryEnd, handler, THROWABLE);
            if (binds()) {
                // registered last: the method's own handlers (finally blocks included) take precedence
                super.visitTryCatchBlock(resume, bodyEnd, onThrow, THROWABLE);
                super.visitTryCatchBlock(exitGuards[0], exitGuards[1], exitGuards[2], THROWABLE);
                super.visitTryCatchBlock(exitGuards[3], exitGuards[4], exitGuards[5], THROWABLE);
                super.visitInsn(Opcodes.ACONST_NULL);
                super.visitVarInsn(Opcodes.ASTORE, token);
            }
            super.visitLabel(tryStart);
            if (action instanceof ReplaceArgument r) {
                int slot = slotOf(argument);
                super.visitVarInsn(Opcodes.ALOAD, slot);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, r.owner(), r.method(), r.descriptor(), false);
                super.visitVarInsn(Opcodes.ASTORE, slot);
            } else if (action instanceof Capture c) {
                super.visitVarInsn(Opcodes.ALOAD, c.argument() < 0 ? 0 : slotOf(c.argument()));
                super.visitMethodInsn(Opcodes.INVOKESTATIC, CARRIER, c.method(), "(Ljava/lang/Object;)V", false);
            } else {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, CARRIER, "enter", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
                super.visitVarInsn(Opcodes.ASTORE, token);
            }
            super.visitLabel(tryEnd);
            super.visitJumpInsn(Opcodes.GOTO, resume);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {THROWABLE});
            super.visitInsn(Opcodes.POP);
            super.visitLabel(resume);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
            super.visitInsn(Opcodes.NOP);
        }

        /** A frame's locals with the token's slot (after every original local) set to Object. */
        private Object[] withToken(Object[] locals) {
            List<Object> out = new ArrayList<>(locals.length + token + 1);
            int slot = 0;
            for (Object l : locals) {
                out.add(l);
                slot += l == Opcodes.LONG || l == Opcodes.DOUBLE ? 2 : 1;
            }
            if (slot > token) {
                throw new IllegalStateException("a frame has locals beyond max_locals");
            }
            while (slot++ < token) {
                out.add(Opcodes.TOP);
            }
            out.add(OBJECT);
            return out.toArray();
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            start();
            if (!binds()) {
                super.visitFrame(type, numLocal, local, numStack, stack);
                return;
            }
            if (type != Opcodes.F_NEW) {
                throw new IllegalStateException("frames were not expanded");
            }
            Object[] locals = new Object[numLocal];
            System.arraycopy(local, 0, locals, 0, numLocal);
            Object[] rewritten = withToken(locals);
            super.visitFrame(type, rewritten.length, rewritten, numStack, stack);
        }

        @Override
        public void visitInsn(int opcode) {
            start();
            if (binds() && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                if (opcode != Opcodes.RETURN) {
                    super.visitVarInsn(returns.getOpcode(Opcodes.ISTORE), token + 1);
                }
                super.visitJumpInsn(Opcodes.GOTO, onReturn);
                return;
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            start();
            if (action instanceof RedirectCall r && redirected == 0) {
                throw new IllegalStateException("no call to " + r.owner() + "." + r.name() + r.descriptor() + " to redirect");
            }
            if (!binds()) {
                super.visitMaxs(Math.max(maxStack, 1), maxLocals);
                return;
            }
            super.visitLabel(bodyEnd);
            Object[] base = withToken(new Object[0]);
            // thrown: exit(token), suppressed, then rethrow
            Object[] withThrown = append(base, THROWABLE);
            super.visitLabel(onThrow);
            super.visitFrame(Opcodes.F_NEW, base.length, base, 1, new Object[] {THROWABLE});
            super.visitVarInsn(Opcodes.ASTORE, token + 1);
            guardedExit(withThrown, exitGuards[0], exitGuards[1], exitGuards[2]);
            super.visitVarInsn(Opcodes.ALOAD, token + 1);
            super.visitInsn(Opcodes.ATHROW);
            // returned: exit(token), suppressed, then return the value kept in token + 1
            Object[] withValue = returns.getSort() == Type.VOID ? base : append(base, ToolWrapperCode.frameType(returns));
            super.visitLabel(onReturn);
            super.visitFrame(Opcodes.F_NEW, withValue.length, withValue, 0, new Object[0]);
            guardedExit(withValue, exitGuards[3], exitGuards[4], exitGuards[5]);
            if (returns.getSort() != Type.VOID) {
                super.visitVarInsn(returns.getOpcode(Opcodes.ILOAD), token + 1);
            }
            super.visitInsn(returns.getOpcode(Opcodes.IRETURN));
            super.visitMaxs(Math.max(maxStack, 2), token + 1 + Math.max(1, returns.getSize()));
        }

        /** {@code try { TaskCarrier.exit(token); } catch (Throwable t) { }}, with {@code locals} live throughout. */
        private void guardedExit(Object[] locals, Label start, Label end, Label handler) {
            Label after = new Label();
            super.visitLabel(start);
            super.visitVarInsn(Opcodes.ALOAD, token);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, CARRIER, "exit", "(Ljava/lang/Object;)V", false);
            super.visitLabel(end);
            super.visitJumpInsn(Opcodes.GOTO, after);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {THROWABLE});
            super.visitInsn(Opcodes.POP);
            super.visitLabel(after);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
        }

        private static Object[] append(Object[] locals, Object type) {
            Object[] out = java.util.Arrays.copyOf(locals, locals.length + 1);
            out[locals.length] = type;
            return out;
        }

        // every other instruction: the entry code goes first

        @Override
        public void visitLabel(Label label) {
            start();
            super.visitLabel(label);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            start();
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            start();
            super.visitVarInsn(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            start();
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            start();
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            start();
            if (action instanceof RedirectCall r && opcode == Opcodes.INVOKEVIRTUAL && owner.equals(r.owner())
                    && name.equals(r.name()) && descriptor.equals(r.descriptor())) {
                redirected++;
                super.visitMethodInsn(Opcodes.INVOKESTATIC, CARRIER, r.carrier(), r.carrierDescriptor(), false);
                return;
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            start();
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            start();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            start();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            start();
            super.visitIincInsn(varIndex, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            start();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            start();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
            start();
            super.visitMultiANewArrayInsn(descriptor, numDimensions);
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            start();
            super.visitLineNumber(line, start);
        }
    }
}
