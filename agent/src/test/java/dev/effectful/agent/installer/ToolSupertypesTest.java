package dev.effectful.agent.installer;

import dev.effectful.agent.e2e.apps.InheritedTools;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URL;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The transformer's cheap decision for classes whose own bytes do not mention the annotation. */
class ToolSupertypesTest {

    /** Fresh for each test (JUnit makes an instance per test): the supertype memory and a loader counting its reads. */
    private final ToolSupertypes s = new ToolSupertypes();
    private final CountingLoader loader = new CountingLoader();

    /** Whether {@code type}, read as {@link #loader} defines it, inherits a tool. */
    private boolean inherits(Class<?> type) throws IOException {
        return s.inheritsTool(loader, internal(type), bytesOf(type));
    }

    /** Counts class-file reads, so the cache and the JDK short cut are visible. */
    static final class CountingLoader extends ClassLoader {
        final AtomicInteger reads = new AtomicInteger();

        CountingLoader() {
            super(ToolSupertypesTest.class.getClassLoader());
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            reads.incrementAndGet();
            return super.getResourceAsStream(name);
        }
    }

    static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    static String internal(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    /** Has a long and a double constant (two constant-pool slots each) before its supertypes. */
    abstract static class WideConstants extends InheritedTools.Mailer implements Serializable, Runnable {
        static final long L = 123456789012345L;
        static final double D = 3.25;
    }

    interface Deeper extends InheritedTools.Payments {
    }

    static final class DeepImpl implements Deeper {
        @Override
        public String charge(String orderId, int cents, String cardToken) {
            return "x";
        }
    }

    @Test
    void headerNamesTheDirectSupertypesAndDropsTheJdks() throws IOException {
        ClassHeader h = ClassHeader.of(bytesOf(WideConstants.class));
        assertThat(h.superName()).isEqualTo(internal(InheritedTools.Mailer.class));
        assertThat(h.interfaces()).containsExactly("java/io/Serializable", "java/lang/Runnable");
        assertThat(h.candidates()).containsExactly(internal(InheritedTools.Mailer.class));
        assertThat(ClassHeader.candidatesOf(bytesOf(WideConstants.class))).isEqualTo(h.candidates());
        assertThat(ClassHeader.candidatesOf(bytesOf(ToolSupertypesTest.class))).isEmpty();
        assertThat(ClassHeader.candidatesOf(bytesOf(DeepImpl.class))).containsExactly(internal(Deeper.class));
        assertThat(ClassHeader.of(bytesOf(Deeper.class)).interfaces()).containsExactly(internal(InheritedTools.Payments.class));
        assertThat(ClassHeader.of(new byte[] {1, 2, 3}).candidates()).isEmpty();
        assertThat(ClassHeader.candidatesOf(java.util.Arrays.copyOf(bytesOf(DeepImpl.class), 40))).isEmpty();
    }

    @Test
    void anImplementationOfAnAnnotatedInterfaceInheritsAToolAtAnyDepth() throws IOException {
        assertThat(AnnotationPrefilter.mayHoldTool(bytesOf(InheritedTools.CardPayments.class))).isFalse();
        assertThat(inherits(InheritedTools.CardPayments.class)).isTrue();
        assertThat(inherits(DeepImpl.class)).isTrue();
        assertThat(inherits(InheritedTools.LoudMailer.class)).isTrue();
    }

    @Test
    void classesExtendingOnlyTheJdkAreDecidedWithoutReadingAnything() throws IOException {
        assertThat(inherits(ToolSupertypesTest.class)).isFalse();
        assertThat(inherits(CountingLoader.class)).isFalse();
        assertThat(loader.reads).hasValue(0);
    }

    @Test
    void aSupertypeIsReadOncePerLoader() throws IOException {
        for (int i = 0; i < 5; i++) {
            s.inheritsTool(loader, internal(DeepImpl.class) + i, bytesOf(DeepImpl.class));
        }
        assertThat(loader.reads).as("Deeper and Payments, each once").hasValue(2);
    }

    @Test
    void aToolTypeWithoutAResourceIsKnownFromWhenItWasTransformed() throws IOException {
        ClassLoader noResources = new ClassLoader(null) {
            @Override
            public URL getResource(String name) {
                return null;
            }
        };
        byte[] impl = bytesOf(InheritedTools.CardPayments.class);
        assertThat(s.inheritsTool(noResources, "gen/A", impl)).isFalse();
        s.sawToolType(new CountingLoader(), internal(InheritedTools.Payments.class), bytesOf(InheritedTools.Payments.class));
        assertThat(s.inheritsTool(noResources, "gen/B", impl)).isTrue();
        assertThat(s.toolType(internal(InheritedTools.Payments.class))).isPresent();
    }

    /** A class without tools that an application extends, and two subclasses of it. */
    abstract static class PlainBase implements Serializable {
    }

    static final class PlainA extends PlainBase {
    }

    static final class PlainB extends PlainBase {
    }

    @Test
    void aSupertypeThatPassedTheTransformerEarlierIsNotReadAgain() throws IOException {
        // the base loads first (a framework's interfaces often do): its own answer is remembered as it passes
        assertThat(inherits(PlainBase.class)).isFalse();
        assertThat(inherits(PlainA.class)).isFalse();
        assertThat(inherits(PlainB.class)).isFalse();
        assertThat(loader.reads).as("the base's answer came from when it passed").hasValue(0);
    }

    @Test
    void aParentLoadersAnswerServesItsChildren() throws IOException {
        CountingLoader parent = new CountingLoader();
        AtomicInteger childReads = new AtomicInteger();
        ClassLoader childOfParent = new ClassLoader(parent) {
            @Override
            public InputStream getResourceAsStream(String name) {
                childReads.incrementAndGet();
                return super.getResourceAsStream(name);
            }
        };
        assertThat(s.inheritsTool(parent, internal(PlainBase.class), bytesOf(PlainBase.class))).isFalse();
        assertThat(s.inheritsTool(childOfParent, internal(PlainA.class), bytesOf(PlainA.class))).isFalse();
        assertThat(childReads).as("the parent defined the base: its answer is the child's").hasValue(0);
        // and a "yes" the parent saw is the child's too
        s.sawToolType(parent, internal(InheritedTools.Payments.class), bytesOf(InheritedTools.Payments.class));
        assertThat(s.inheritsTool(childOfParent, internal(InheritedTools.CardPayments.class),
                bytesOf(InheritedTools.CardPayments.class))).isTrue();
    }

    @Test
    void anUnreadableSupertypeLeavesNoAnswerForItsSubclass() throws IOException {
        String hidden = internal(PlainBase.class) + ".class";
        ClassLoader baseUnreadable = new ClassLoader(ToolSupertypesTest.class.getClassLoader()) {
            @Override
            public InputStream getResourceAsStream(String name) {
                return name.equals(hidden) ? null : super.getResourceAsStream(name);
            }
        };
        // PlainA's base cannot be read (yet): PlainA is not remembered as "no"...
        assertThat(s.inheritsTool(baseUnreadable, internal(PlainA.class), bytesOf(PlainA.class))).isFalse();
        // ...so once the base turns out to declare a tool, a subclass of PlainA finds it
        s.sawToolType(new CountingLoader(), internal(PlainBase.class), bytesOf(InheritedTools.Payments.class));
        assertThat(s.inheritsTool(baseUnreadable, "gen/SubOfA", subclassBytes(internal(PlainA.class)))).isTrue();
    }

    /** A minimal class file of a class extending {@code superName}. */
    private static byte[] subclassBytes(String superName) {
        net.bytebuddy.jar.asm.ClassWriter w = new net.bytebuddy.jar.asm.ClassWriter(0);
        w.visit(net.bytebuddy.jar.asm.Opcodes.V17, net.bytebuddy.jar.asm.Opcodes.ACC_PUBLIC, "gen/SubOfA", null, superName,
                null);
        w.visitEnd();
        return w.toByteArray();
    }

    /** A jar holding {@code classes}' class files, as an archive a class came from. */
    private static java.nio.file.Path jarOf(java.nio.file.Path dir, Class<?>... classes) throws IOException {
        java.nio.file.Path jar = dir.resolve("lib.jar");
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar))) {
            for (Class<?> c : classes) {
                out.putNextEntry(new java.util.jar.JarEntry(internal(c) + ".class"));
                out.write(bytesOf(c));
                out.closeEntry();
            }
        }
        return jar;
    }

    @Test
    void aSupertypeInTheClasssOwnArchiveIsReadFromThereWithoutSearchingTheLoader(@org.junit.jupiter.api.io.TempDir
                                                                                    java.nio.file.Path dir) throws IOException {
        URL archive = new URL("jar:" + jarOf(dir, PlainBase.class, InheritedTools.Payments.class).toUri() + "!/");
        assertThat(s.inheritsTool(loader, archive, internal(PlainA.class), bytesOf(PlainA.class))).isFalse();
        assertThat(s.inheritsTool(loader, archive, internal(InheritedTools.CardPayments.class),
                bytesOf(InheritedTools.CardPayments.class))).as("the annotated interface, from the archive").isTrue();
        assertThat(loader.reads).as("both supertypes were in the archive").hasValue(0);
        // a supertype the archive does not hold is looked for by the loader, as before
        assertThat(s.inheritsTool(loader, archive, internal(DeepImpl.class), bytesOf(DeepImpl.class))).isTrue();
        assertThat(loader.reads).as("Deeper, not in the archive").hasValue(1);
    }

    @Test
    void aToolTypeThatAnEarlierCopyDidNotDeclareIsSaidLoudly() throws IOException {
        java.util.List<String> lines = dev.effectful.agent.LogLines.capture();
        try {
            assertThat(inherits(PlainA.class)).isFalse();
            // the copy the JVM defines declares a tool, unlike the one read for PlainA
            s.sawToolType(loader, internal(PlainBase.class), bytesOf(InheritedTools.Payments.class));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("ERROR")
                    .contains(PlainBase.class.getName(), "UNGUARDED"));
        } finally {
            dev.effectful.agent.LogLines.restore();
        }
    }

    @Test
    void onlyATypeSeenWithoutToolsIsKnownWithoutTools() throws IOException {
        assertThat(s.knownWithoutTools(loader, internal(PlainBase.class))).as("never seen").isFalse();
        inherits(PlainBase.class);
        assertThat(s.knownWithoutTools(loader, internal(PlainBase.class))).isTrue();
        inherits(Deeper.class);
        assertThat(s.knownWithoutTools(loader, internal(Deeper.class))).as("inherits Payments' tool").isFalse();
        s.sawToolType(loader, internal(InheritedTools.Payments.class), bytesOf(InheritedTools.Payments.class));
        assertThat(s.knownWithoutTools(loader, internal(InheritedTools.Payments.class))).isFalse();
        assertThat(s.knownWithoutTools(null, "java/lang/Runnable")).as("the JDK's: the hook decides").isFalse();
    }

    @Test
    void onlyAnArchiveOnThisMachinesDiskIsReadDirectly() throws IOException {
        assertThat(ToolSupertypes.localArchive(new URL("jar:file:/srv/app/lib.jar!/"))).isTrue();
        // Spring Boot's own jar handler makes these; the JDK's would refuse the inner "nested:" protocol
        java.net.URLStreamHandler springBoots = new java.net.URLStreamHandler() {
            @Override
            protected java.net.URLConnection openConnection(URL u) throws IOException {
                throw new IOException("not opened here");
            }
        };
        assertThat(ToolSupertypes.localArchive(new URL("jar", null, -1, "nested:/srv/app.jar/!BOOT-INF/lib/x.jar!/",
                springBoots))).isTrue();
        // a class loaded over the network is its loader's business: the agent opens no connection
        assertThat(ToolSupertypes.localArchive(new URL("jar:http://example.invalid/lib.jar!/"))).isFalse();
        assertThat(ToolSupertypes.localArchive(new URL("file:/srv/app/classes/"))).isFalse();
        assertThat(ToolSupertypes.localArchive(null)).isFalse();
    }
}
