package dev.effectful.agent.installer;

import dev.effectful.agent.e2e.apps.InheritedTools;
import dev.effectful.agent.integration.Instrumentations;
import dev.effectful.core.journal.JournalProblem;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

import static dev.effectful.agent.installer.ToolSupertypesTest.bytesOf;
import static dev.effectful.agent.installer.ToolSupertypesTest.internal;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which weaver a class gets, and that a class woven at first load keeps its shape when it is
 * retransformed (the JVM refuses a retransformation that removes the methods it added).
 */
class WeavingTransformerTest {

    /** An application loader (the transformer ignores its own): serves the test classes' files through its parent. */
    private final ClassLoader loader = new ClassLoader(WeavingTransformerTest.class.getClassLoader()) {
    };
    private final WeavingTransformer transformer = new WeavingTransformer(WeavingTransformer.class.getClassLoader(),
            EngineStarter.refusing(new JournalProblem(JournalProblem.Cause.OTHER, "test")), null, new ToolSupertypes(),
            Instrumentations.load(WeavingTransformer.class.getClassLoader()));

    /** What the transformer makes of {@code type}'s class file: at its first load ({@code redefined} null), else retransformed. */
    private byte[] woven(Class<?> type, Class<?> redefined) throws IOException {
        return transformer.transform(null, loader, internal(type), redefined, null, bytesOf(type));
    }

    @Test
    void aClassDeclaringItsToolsIsWovenAtFirstLoadAndTheSameWayOnRetransformation() throws IOException {
        Class<?> type = FirstLoadWeaverTest.Sample.class;
        byte[] first = woven(type, null);
        assertThat(methods(first)).contains("effectful$body$greet(Ljava/lang/String;I)Ljava/lang/String;");
        assertThat(methods(woven(type, type))).isEqualTo(methods(first));
    }

    @Test
    void aClassLoadedBeforeTheAgentKeepsItsShape() throws IOException {
        Class<?> type = FirstLoadWeaverTest.Sample.class;
        byte[] original = bytesOf(type);
        byte[] retransformed = woven(type, type);
        assertThat(retransformed).as("rewritten through Byte Buddy's advice").isNotNull().isNotEqualTo(original);
        assertThat(methods(retransformed)).isEqualTo(methods(original));
    }

    @Test
    void aClassThatAlsoInheritsAToolTakesTheAdvicePathThatAddsNoMethod() throws IOException {
        // declares its own tool and implements an annotated interface method: the inherited match needs Byte Buddy
        Class<?> type = InheritedTools.OwnLabels.class;
        byte[] first = woven(type, null);
        assertThat(first).isNotNull();
        assertThat(methods(first)).isEqualTo(methods(bytesOf(type)));
    }

    private static Set<String> methods(byte[] bytes) {
        Set<String> out = new TreeSet<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                out.add(name + descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE);
        return out;
    }
}
