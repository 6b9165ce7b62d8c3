package dev.effectful.agent.installer;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Puts the calls to {@code bridge.LoadingHooks} into the two JDK methods that make classes no
 * {@code ClassFileTransformer} ever sees: {@code LambdaMetafactory.metafactory}/{@code altMetafactory}
 * (lambdas and method references: the call site is handed to the hook before it is returned) and
 * {@code MethodHandles.Lookup.defineHiddenClass}/{@code defineHiddenClassWithClassData} (the class
 * file is handed to the hook before it is defined); and into {@code ClassLoader.defineClass(String,
 * byte[], int, int, ProtectionDomain)}, where every class file a loader defines passes (a heap
 * {@code ByteBuffer} too), so that its supertypes can be loaded before it ({@link ToolSupertypes#preload}). Byte Buddy's bundled ASM core only, like the
 * executor weaver: no member is added and no branch, so the same bytes serve a first load and a
 * retransformation, and every stack map frame of the method stays as it was (the inserted code is
 * straight-line and leaves the stack as it found it); only the maximum stack grows.
 *
 * <pre>
 * metafactory:        ...; CallSite cs; return LoadingHooks.lambda(cs, caller, interfaceMethodName, factoryType);
 * defineHiddenClass:  bytes = LoadingHooks.hiddenClass(this, bytes); ...original code
 * defineClass:        LoadingHooks.beforeDefine(this, b, off, len); ...original code
 * </pre>
 */
final class JdkHooks {

    static final String METAFACTORY = "java/lang/invoke/LambdaMetafactory";
    static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    static final String CLASS_LOADER = "java/lang/ClassLoader";
    private static final String DEFINE = "(Ljava/lang/String;[BIILjava/security/ProtectionDomain;)Ljava/lang/Class;";
    private static final String DEFINE_HOOK = "(Ljava/lang/ClassLoader;[BII)V";
    private static final String HOOKS = "dev/effectful/agent/bridge/LoadingHooks";
    private static final String LAMBDA_HOOK = "(Ljava/lang/invoke/CallSite;Ljava/lang/invoke/MethodHandles$Lookup;"
            + "Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;";
    private static final String HIDDEN_HOOK = "(Ljava/lang/invoke/MethodHandles$Lookup;[B)[B";
    private static final int API = Opcodes.ASM9;

    private JdkHooks() {
    }

    /** True for the three JDK classes this rewrites. */
    static boolean rewrites(String internalName) {
        return METAFACTORY.equals(internalName) || LOOKUP.equals(internalName) || CLASS_LOADER.equals(internalName);
    }

    /** The class rewritten, or null when it has none of the methods (a JDK this does not know). */
    static byte[] weave(String internalName, byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        boolean[] touched = {false};
        boolean metafactory = METAFACTORY.equals(internalName);
        boolean classLoader = CLASS_LOADER.equals(internalName);
        reader.accept(new ClassVisitor(API, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (classLoader) {
                    if ((access & Opcodes.ACC_STATIC) == 0 && name.equals("defineClass") && descriptor.equals(DEFINE)) {
                        touched[0] = true;
                        return AtEntry.beforeDefine(mv);
                    }
                    return mv;
                }
                if (metafactory && (access & Opcodes.ACC_STATIC) != 0
                        && (name.equals("metafactory") || name.equals("altMetafactory"))
                        && descriptor.startsWith("(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;")
                        && descriptor.endsWith(")Ljava/lang/invoke/CallSite;")) {
                    touched[0] = true;
                    return new ReturnedCallSite(mv);
                }
                if (!metafactory && (access & Opcodes.ACC_STATIC) == 0
                        && (name.equals("defineHiddenClass") || name.equals("defineHiddenClassWithClassData"))
                        && descriptor.startsWith("([B")) {
                    touched[0] = true;
                    return AtEntry.hiddenClass(mv);
                }
                return mv;
            }
        }, 0);
        return touched[0] ? writer.toByteArray() : null;
    }

    /** Before each {@code areturn} of a metafactory: the call site through the hook (arguments 0, 1, 2). */
    private static final class ReturnedCallSite extends MethodVisitor {
        ReturnedCallSite(MethodVisitor mv) {
            super(API, mv);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.ARETURN) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, 1);
                super.visitVarInsn(Opcodes.ALOAD, 2);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "lambda", LAMBDA_HOOK, false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            // the returned call site is on the stack under the three arguments
            super.visitMaxs(Math.max(maxStack, 1) + 3, maxLocals);
        }
    }

    /**
     * At a method's entry: its {@code loads} (each an opcode and a local's slot, pairs) passed to the hook
     * {@code hook}; when {@code storeSlot} is 0 or more, the hook's result replaces that local. Straight-line code
     * that leaves the stack as it found it: no frame changes, only the maximum stack grows.
     */
    private static final class AtEntry extends MethodVisitor {
        private final int[] loads;
        private final String hook;
        private final String descriptor;
        private final int storeSlot;

        AtEntry(MethodVisitor mv, int[] loads, String hook, String descriptor, int storeSlot) {
            super(API, mv);
            this.loads = loads;
            this.hook = hook;
            this.descriptor = descriptor;
            this.storeSlot = storeSlot;
        }

        /** {@code bytes = LoadingHooks.hiddenClass(this, bytes)}, in {@code defineHiddenClass(bytes, ...)}. */
        static AtEntry hiddenClass(MethodVisitor mv) {
            return new AtEntry(mv, new int[] {Opcodes.ALOAD, 0, Opcodes.ALOAD, 1}, "hiddenClass", HIDDEN_HOOK, 1);
        }

        /** {@code LoadingHooks.beforeDefine(this, b, off, len)}, in {@code defineClass(name, b, off, len, pd)}. */
        static AtEntry beforeDefine(MethodVisitor mv) {
            return new AtEntry(mv, new int[] {Opcodes.ALOAD, 0, Opcodes.ALOAD, 2, Opcodes.ILOAD, 3, Opcodes.ILOAD, 4},
                    "beforeDefine", DEFINE_HOOK, -1);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            for (int k = 0; k < loads.length; k += 2) {
                super.visitVarInsn(loads[k], loads[k + 1]);
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, descriptor, false);
            if (storeSlot >= 0) {
                super.visitVarInsn(Opcodes.ASTORE, storeSlot);
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(Math.max(maxStack, loads.length / 2), maxLocals);
        }
    }
}
