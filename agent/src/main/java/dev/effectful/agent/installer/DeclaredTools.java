package dev.effectful.agent.installer;

import dev.effectful.agent.integration.ToolDeclaration;
import dev.effectful.agent.integration.ToolDeclarations;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The guarded tools of the classes the weaver has seen declare them ({@link ToolSupertypes} keeps their
 * class files), read from those class files with ASM when a name is first asked for: nothing is read on
 * the weaving path, and an application that serves no MCP tools never pays for it. Interfaces and abstract
 * methods count: a tool whose annotation its implementation inherits is listed under the interface's name.
 *
 * <p>A tool is listed under its verb ({@code @EffectfulTool(name)}, default the method's name) and, when the
 * same method carries a framework's own tool annotation (Spring AI's {@code @Tool}, the MCP annotations'
 * {@code @McpTool}), under the name that annotation gives the server (its {@code name}, default the method's).
 */
final class DeclaredTools implements ToolDeclarations {

    private static final String TOOL = "Ldev/effectful/EffectfulTool;";
    /** Framework annotations whose {@code name} (default: the method's name) is the name an MCP server lists. */
    private static final List<String> LISTED_AS = List.of("Lorg/springframework/ai/tool/annotation/Tool;",
            "Lorg/springaicommunity/mcp/annotation/McpTool;");
    private static final int API = Opcodes.ASM9;

    private final ToolSupertypes supertypes;
    /** Per internal name: the class file read (by identity: a retransformed class is read again) and its tools. */
    private final Map<String, Read> read = new ConcurrentHashMap<>();

    private record Read(byte[] bytes, List<ToolDeclaration> tools) {
    }

    DeclaredTools(ToolSupertypes supertypes) {
        this.supertypes = supertypes;
    }

    @Override
    public List<ToolDeclaration> named(String name) {
        List<ToolDeclaration> out = new ArrayList<>();
        supertypes.forEachToolType((type, bytes) -> {
            Read r = read.get(type);
            if (r == null || r.bytes() != bytes) {
                r = new Read(bytes, of(bytes));
                read.put(type, r);
            }
            for (ToolDeclaration d : r.tools()) {
                if (d.name().equals(name)) {
                    out.add(d);
                }
            }
        });
        return out;
    }

    /** The tools a class file declares, each under every name it is listed as; empty when it cannot be read. */
    static List<ToolDeclaration> of(byte[] bytes) {
        List<ToolDeclaration> out = new ArrayList<>();
        try {
            new ClassReader(bytes).accept(new Reader(out), ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG
                    | ClassReader.SKIP_FRAMES);
        } catch (RuntimeException malformed) {
            // the JVM refuses such bytes itself, or a newer class file format: no hints, nothing else changes
            return List.of();
        }
        return out;
    }

    private static final class Reader extends ClassVisitor {
        private final List<ToolDeclaration> out;
        private String owner;

        Reader(List<ToolDeclaration> out) {
            super(API);
            this.out = out;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name.replace('/', '.');
        }

        @Override
        public MethodVisitor visitMethod(int access, String method, String descriptor, String signature, String[] exceptions) {
            // javac copies a method's annotations onto its bridges: the same tool, listed once
            if ((access & Opcodes.ACC_BRIDGE) != 0 || method.charAt(0) == '<') {
                return null;
            }
            return new MethodVisitor(API) {
                private final Attributes tool = new Attributes();
                private final List<Attributes> listedAs = new ArrayList<>();

                @Override
                public AnnotationVisitor visitAnnotation(String type, boolean visible) {
                    if (TOOL.equals(type)) {
                        tool.seen = true;
                        return tool.visitor();
                    }
                    if (LISTED_AS.contains(type)) {
                        Attributes a = new Attributes();
                        listedAs.add(a);
                        return a.visitor();
                    }
                    return null;
                }

                @Override
                public void visitEnd() {
                    if (!tool.seen || tool.kind == null) {
                        return;
                    }
                    boolean outside = !tool.string("keyHeader").isBlank() || !tool.string("probe").isBlank();
                    String declaring = owner + "." + method;
                    String verb = tool.string("name").isBlank() ? method : tool.string("name");
                    out.add(new ToolDeclaration(verb, tool.kind, outside, declaring));
                    for (Attributes a : listedAs) {
                        String listed = a.string("name").isBlank() ? method : a.string("name");
                        if (!listed.equals(verb)) {
                            out.add(new ToolDeclaration(listed, tool.kind, outside, declaring));
                        }
                    }
                }
            };
        }
    }

    /** An annotation's string attributes and its {@code kind} enum value, as ASM reports them. */
    private static final class Attributes {
        boolean seen;
        String kind;
        private final Map<String, String> strings = new java.util.HashMap<>();

        String string(String attribute) {
            return strings.getOrDefault(attribute, "");
        }

        AnnotationVisitor visitor() {
            return new AnnotationVisitor(API) {
                @Override
                public void visit(String attribute, Object value) {
                    if (value instanceof String s) {
                        strings.put(attribute, s);
                    }
                }

                @Override
                public void visitEnum(String attribute, String descriptor, String value) {
                    if ("kind".equals(attribute)) {
                        kind = value;
                    }
                }
            };
        }
    }
}
