package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.EntryHooks;
import dev.effectful.instrumentation.api.EntryCall;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Inserts a library instrumentation's {@link EntryCall}s with nothing but Byte Buddy's bundled ASM core,
 * as {@link FirstLoadWeaver} does for tools: at the entry of each matching method,
 * {@code arg = (T) EntryHooks.call(arg, id)} (or the call alone, its answer dropped). The inserted code
 * has no branch and no new local, so the method's stack map frames stay valid; only its maximum stack
 * grows. It adds no member, so it also serves a class already loaded (retransformation).
 */
final class EntryCallWeaver {

    private static final String HOOKS = Type.getInternalName(EntryHooks.class);
    private static final int API = Opcodes.ASM9;
    /** One bridge id per entry call, however often its class is woven (retransformation, several loaders). */
    private static final Map<EntryCall, Integer> IDS = new ConcurrentHashMap<>();

    private EntryCallWeaver() {
    }

    /** The rewritten class, or null when none of the calls' methods is in it. */
    static byte[] weave(byte[] bytes, List<EntryCall> calls) {
        Map<String, EntryCall> byMethod = new HashMap<>();
        for (EntryCall c : calls) {
            byMethod.put(c.method() + c.descriptor(), c);
        }
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        boolean[] woven = {false};
        reader.accept(new ClassVisitor(API, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
                EntryCall call = byMethod.get(name + descriptor);
                if (call == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                    return next;
                }
                Insert insert = Insert.of(call, access, descriptor);
                if (insert == null) {
                    return next;
                }
                woven[0] = true;
                return new MethodVisitor(API, next) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        insert.emit(mv, IDS.computeIfAbsent(call, c -> EntryHooks.register(c.hook())));
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 2, maxLocals);
                    }
                };
            }
        }, 0);
        return woven[0] ? writer.toByteArray() : null;
    }

    /** Where the value lives and what it is: a reference in a local slot. */
    private record Insert(int slot, String type, boolean replaces) {

        /** Null for an argument that is not a reference (or not there): such a call is not inserted. */
        static Insert of(EntryCall call, int access, String descriptor) {
            boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
            if (call.argument() == EntryCall.THIS) {
                return isStatic ? null : new Insert(0, null, false);
            }
            Type[] args = Type.getArgumentTypes(descriptor);
            if (call.argument() >= args.length) {
                return null;
            }
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < call.argument(); i++) {
                slot += args[i].getSize();
            }
            Type t = args[call.argument()];
            if (t.getSort() != Type.OBJECT && t.getSort() != Type.ARRAY) {
                return null;
            }
            return new Insert(slot, t.getInternalName(), call.replacesArgument());
        }

        void emit(MethodVisitor mv, int id) {
            mv.visitVarInsn(Opcodes.ALOAD, slot);
            mv.visitLdcInsn(id);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "call", "(Ljava/lang/Object;I)Ljava/lang/Object;", false);
            if (replaces) {
                mv.visitTypeInsn(Opcodes.CHECKCAST, type);
                mv.visitVarInsn(Opcodes.ASTORE, slot);
            } else {
                mv.visitInsn(Opcodes.POP);
            }
        }
    }
}
