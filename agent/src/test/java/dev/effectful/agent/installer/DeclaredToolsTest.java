package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.agent.integration.ToolDeclaration;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The guarded tools read from class files, under the names a server lists them as. */
class DeclaredToolsTest {

    static class Shop {
        @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
        public String charge(@IntentKey String order) {
            return order;
        }

        @EffectfulTool(kind = EffectKind.READ)
        public String findOrder(@IntentKey String order) {
            return order;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "sent")
        public String notifyCustomer(@IntentKey String order) {
            return order;
        }

        String sent(String order) {
            return order;
        }

        public String plain(String order) {
            return order;
        }
    }

    interface Refunds {
        @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "refund")
        String refund(@IntentKey String order);
    }

    @Test
    void eachToolUnderItsVerbWithItsKindAndWhetherItReachesOutside() throws IOException {
        assertThat(DeclaredTools.of(bytesOf(Shop.class))).containsExactlyInAnyOrder(
                new ToolDeclaration("charge_card", "MONEY", true, Shop.class.getName() + ".charge"),
                new ToolDeclaration("findOrder", "READ", false, Shop.class.getName() + ".findOrder"),
                new ToolDeclaration("notifyCustomer", "SEND", true, Shop.class.getName() + ".notifyCustomer"));
    }

    @Test
    void anInterfacesAbstractToolIsDeclaredForItsImplementations() throws IOException {
        assertThat(DeclaredTools.of(bytesOf(Refunds.class))).containsExactly(
                new ToolDeclaration("refund", "DESTRUCTIVE", false, Refunds.class.getName() + ".refund"));
    }

    /** Spring AI's {@code @Tool} and the MCP annotations' {@code @McpTool}, written with ASM: neither is on this class path. */
    @Test
    void aFrameworksToolAnnotationAddsTheNameTheServerListsItUnder() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "x/Tools", null, "java/lang/Object", null);
        method(cw, "pay", "MONEY", "", "Lorg/springframework/ai/tool/annotation/Tool;", "pay_invoice");
        method(cw, "cancel", "DESTRUCTIVE", "cancel_order", "Lorg/springaicommunity/mcp/annotation/McpTool;", null);
        method(cw, "same", "CREATE", "", "Lorg/springframework/ai/tool/annotation/Tool;", null);
        cw.visitEnd();

        assertThat(DeclaredTools.of(cw.toByteArray())).containsExactlyInAnyOrder(
                new ToolDeclaration("pay", "MONEY", false, "x.Tools.pay"),
                new ToolDeclaration("pay_invoice", "MONEY", false, "x.Tools.pay"),
                new ToolDeclaration("cancel_order", "DESTRUCTIVE", false, "x.Tools.cancel"),
                // @McpTool without a name lists the method's name
                new ToolDeclaration("cancel", "DESTRUCTIVE", false, "x.Tools.cancel"),
                new ToolDeclaration("same", "CREATE", false, "x.Tools.same"));
    }

    @Test
    void theNamesAskedForComeFromEveryToolTypeSeenAndAChangedClassFileIsReadAgain() throws IOException {
        ToolSupertypes seen = new ToolSupertypes();
        DeclaredTools tools = new DeclaredTools(seen);
        assertThat(tools.named("refund")).isEmpty();
        seen.sawToolType(getClass().getClassLoader(), "p/Refunds", bytesOf(Refunds.class));
        seen.sawToolType(getClass().getClassLoader(), "p/Shop", bytesOf(Shop.class));
        assertThat(tools.named("refund")).extracting(ToolDeclaration::kind).containsExactly("DESTRUCTIVE");
        assertThat(tools.named("charge_card")).extracting(ToolDeclaration::kind).containsExactly("MONEY");
        // the same name now holds another class file (a redefinition): read again
        seen.sawToolType(getClass().getClassLoader(), "p/Refunds", bytesOf(Shop.class));
        assertThat(tools.named("refund")).isEmpty();
        assertThat(tools.named("charge_card")).hasSize(2);
    }

    @Test
    void unreadableBytesDeclareNothing() {
        assertThat(DeclaredTools.of(new byte[] {1, 2, 3})).isEmpty();
    }

    private static void method(ClassWriter cw, String name, String kind, String verb, String framework, String listed) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, name, "()V", null, null);
        AnnotationVisitor tool = mv.visitAnnotation(Type.getDescriptor(EffectfulTool.class), true);
        tool.visitEnum("kind", Type.getDescriptor(EffectKind.class), kind);
        if (!verb.isEmpty()) {
            tool.visit("name", verb);
        }
        tool.visitEnd();
        AnnotationVisitor f = mv.visitAnnotation(framework, true);
        if (listed != null) {
            f.visit("name", listed);
        }
        f.visitEnd();
        mv.visitEnd();
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }
}
