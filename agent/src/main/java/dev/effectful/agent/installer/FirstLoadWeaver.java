package dev.effectful.agent.installer;

import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.util.HashSet;
import java.util.Set;

/**
 * Guards the {@code @EffectfulTool} methods a class declares itself, with nothing but Byte Buddy's
 * bundled ASM core (some 30 classes, against the ~850 the Advice pipeline loads). Each tool method
 * {@code m} becomes two: a private synthetic {@code effectful$body$m} holding the original code
 * untouched (so its stack map frames stay valid), and a wrapper with the original name, descriptor,
 * access, annotations and parameters that does what {@link ToolAdvice} does ({@link ToolWrapperCode}).
 *
 * <p>It adds methods, which the JVM allows only when a class is first defined: classes already
 * loaded (attach) keep the Byte Buddy path, and a class woven here is woven here again on any later
 * retransformation or redefinition, so its shape never changes. It declines (null) what the Byte
 * Buddy path handles more generally: interfaces, class files older than Java 6 (no stack map frames),
 * and names that already use the prefix.
 */
final class FirstLoadWeaver {

    static final String BODY_PREFIX = "effectful$body$";
    private static final String TOOL_DESCRIPTOR = "Ldev/effectful/EffectfulTool;";
    private static final int API = Opcodes.ASM9;

    private FirstLoadWeaver() {
    }

    /** The rewritten class, or null when it declares no tool this weaver may guard (the caller decides what then). */
    static byte[] weave(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        Scan scan = new Scan();
        reader.accept(scan, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (!scan.eligible || scan.tools.isEmpty()) {
            return null;
        }
        // no COMPUTE_*: untouched methods are copied byte for byte, the wrapper's maxima and frames are written by hand
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new Rewrite(writer, scan.tools), 0);
        return writer.toByteArray();
    }

    /** What the rewrite needs to know before it sees a method's annotations: which methods are tools. */
    private static final class Scan extends ClassVisitor {
        final Set<String> tools = new HashSet<>();
        boolean eligible = true;
        String owner;

        Scan() {
            super(API);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            int major = version & 0xFFFF;
            if (major < Opcodes.V1_6 || (access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) {
                eligible = false;
            }
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            if (name.startsWith(BODY_PREFIX)) {
                eligible = false;
                return null;
            }
            // as ToolWeaving's matcher: methods only, not bridges (javac copies annotations onto them), abstract or native ones
            if (name.charAt(0) == '<' || (access & (Opcodes.ACC_BRIDGE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return null;
            }
            String key = name + descriptor;
            return new MethodVisitor(API) {
                @Override
                public AnnotationVisitor visitAnnotation(String type, boolean visible) {
                    if (TOOL_DESCRIPTOR.equals(type)) {
                        tools.add(key);
                        JsonWarmUp.toolWoven(descriptor);
                        return new AnnotationVisitor(API) {
                            private String kind;

                            @Override
                            public void visitEnum(String attribute, String enumDescriptor, String value) {
                                if ("kind".equals(attribute)) {
                                    kind = value;
                                }
                            }

                            @Override
                            public void visitEnd() {
                                AsyncWeaving.woven(owner, name, descriptor, kind);
                            }
                        };
                    }
                    return null;
                }
            };
        }
    }

    private static final class Rewrite extends ClassVisitor {
        private final Set<String> tools;
        private String owner;

        Rewrite(ClassVisitor next, Set<String> tools) {
            super(API, next);
            this.tools = tools;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            if (!tools.contains(name + descriptor)) {
                return super.visitMethod(access, name, descriptor, signature, exceptions);
            }
            MethodVisitor wrapper = super.visitMethod(access, name, descriptor, signature, exceptions);
            int bodyAccess = (access & ~(Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED | Opcodes.ACC_VARARGS))
                    | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
            MethodVisitor body = super.visitMethod(bodyAccess, BODY_PREFIX + name, descriptor, null, exceptions);
            return new Split(wrapper, body, new ToolWrapperCode(owner, access, name, descriptor));
        }
    }

    /**
     * Everything about the method itself (annotations, parameter names and annotations, attributes)
     * goes to the wrapper, which is what reflection, the runtime and other agents see; everything
     * from the code on goes to the body.
     */
    private static final class Split extends MethodVisitor {
        private final MethodVisitor body;
        private final ToolWrapperCode code;
        private final MethodVisitor wrapper;

        Split(MethodVisitor wrapper, MethodVisitor body, ToolWrapperCode code) {
            super(API, wrapper);
            this.wrapper = wrapper;
            this.body = body;
            this.code = code;
        }

        @Override
        public void visitCode() {
            code.emit(wrapper);
            wrapper.visitEnd();
            mv = body;
            body.visitCode();
        }
    }
}
