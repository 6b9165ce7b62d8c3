package dev.effectful.agent.installer;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running JDK's own LambdaMetafactory and Lookup class files get the hook calls where they must be:
 * before every return of the two metafactories, first thing in the two hidden-class definers, and
 * nowhere else; the rest of each class is left as it was.
 */
class JdkHooksTest {

    @Test
    void everyMetafactoryReturnPassesTheCallSiteToTheHook() throws IOException {
        byte[] original = jdkClass(JdkHooks.METAFACTORY);
        List<String> calls = hookCalls(JdkHooks.weave(JdkHooks.METAFACTORY, original));
        assertThat(calls).contains("metafactory:lambda", "altMetafactory:lambda").allMatch(c -> c.endsWith(":lambda"))
                .allMatch(c -> c.startsWith("metafactory:") || c.startsWith("altMetafactory:"));
        assertThat(calls.size()).isEqualTo(returns(original, "metafactory") + returns(original, "altMetafactory"));
    }

    @Test
    void bothHiddenClassDefinersHandTheirBytesToTheHookFirst() throws IOException {
        List<String> calls = hookCalls(JdkHooks.weave(JdkHooks.LOOKUP, jdkClass(JdkHooks.LOOKUP)));
        assertThat(calls).containsExactlyInAnyOrder("defineHiddenClass:hiddenClass", "defineHiddenClassWithClassData:hiddenClass");
    }

    @Test
    void everyClassFileALoaderDefinesIsHandedToTheHookFirst() throws IOException {
        List<String> calls = hookCalls(JdkHooks.weave(JdkHooks.CLASS_LOADER, jdkClass(JdkHooks.CLASS_LOADER)));
        // the byte[] definer every other public definer (heap ByteBuffers too) ends in
        assertThat(calls).containsExactly("defineClass:beforeDefine");
    }

    @Test
    void otherClassesAreNotTouched() throws IOException {
        assertThat(JdkHooks.rewrites("java/util/concurrent/FutureTask")).isFalse();
        assertThat(JdkHooks.weave("java/lang/String", jdkClass("java/lang/String"))).isNull();
    }

    private static byte[] jdkClass(String internalName) throws IOException {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
            return in.readAllBytes();
        }
    }

    private static int returns(byte[] bytes, String method) {
        int[] n = {0};
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return !name.equals(method) ? null : new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        n[0] += opcode == Opcodes.ARETURN ? 1 : 0;
                    }
                };
            }
        }, 0);
        return n[0];
    }

    /** "method:hook" for each call to LoadingHooks, in order. */
    private static List<String> hookCalls(byte[] bytes) {
        List<String> out = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String m, String d, boolean itf) {
                        if (owner.equals("dev/effectful/agent/bridge/LoadingHooks")) {
                            out.add(name + ":" + m);
                        }
                    }
                };
            }
        }, 0);
        return out;
    }
}
