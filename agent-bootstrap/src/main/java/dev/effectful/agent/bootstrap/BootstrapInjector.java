package dev.effectful.agent.bootstrap;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Puts the public API and the bridge into the bootstrap class loader, so that every class loader
 * (the application's, the JDK's executors) sees exactly one copy of them.
 *
 * <p>Defining the classes directly keeps the JVM quiet: appending a jar to the bootstrap search
 * makes it print that class-data sharing is now limited to boot classes, on every start. The
 * append remains the fallback if direct definition is not possible on this JVM.
 */
final class BootstrapInjector {

    /** Written by the build (agent/pom.xml): the API's and the bridge's class files, one entry name a line. */
    static final String CLASS_LIST = "META-INF/effectful-bootstrap-classes";

    private BootstrapInjector() {
    }

    static void inject(Instrumentation inst, File agentJar, boolean withApi) throws IOException {
        try (JarFile jar = new JarFile(agentJar, false)) {
            List<String> names = new ArrayList<>();
            List<byte[]> bytes = new ArrayList<>();
            for (JarEntry entry : candidates(jar)) {
                String n = entry.getName();
                if (n.endsWith(".class") && ((withApi && isApi(n)) || n.startsWith("dev/effectful/agent/bridge/"))) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        names.add(n.substring(0, n.length() - 6).replace('/', '.'));
                        bytes.add(in.readAllBytes());
                    }
                }
            }
            try {
                defineAll(inst, names, bytes);
                return;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError directDefinitionUnavailable) {
                // fall through to the documented, noisier way
            }
        }
        // the jar also holds the API: a class path application with an API loaded elsewhere (attach,
        // named module) never asks the bootstrap loader for it, so the copy there stays undefined
        inst.appendToBootstrapClassLoaderSearch(new JarFile(agentJar, false));
    }

    /**
     * The entries named by the list the build writes beside them; every entry of the jar when the list is
     * absent (a jar laid out by hand). Walking all of them in premain's still interpreted code costs
     * some 15-30 ms on a jar of ~7,000 entries.
     */
    private static List<JarEntry> candidates(JarFile jar) throws IOException {
        List<JarEntry> out = new ArrayList<>();
        JarEntry list = jar.getJarEntry(CLASS_LIST);
        if (list != null) {
            try (InputStream in = jar.getInputStream(list)) {
                for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                    JarEntry e = line.isBlank() ? null : jar.getJarEntry(line.strip());
                    if (e == null && !line.isBlank()) {
                        return every(jar);
                    }
                    if (e != null) {
                        out.add(e);
                    }
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
        }
        return every(jar);
    }

    private static List<JarEntry> every(JarFile jar) {
        List<JarEntry> out = new ArrayList<>();
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            out.add(e.nextElement());
        }
        return out;
    }

    private static boolean isDefined(String name) {
        try {
            Class.forName(name.replace('/', '.'), false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean isApi(String entry) {
        return entry.startsWith("dev/effectful/") && entry.indexOf('/', "dev/effectful/".length()) < 0;
    }

    private static void defineAll(Instrumentation inst, List<String> names, List<byte[]> bytes)
            throws ReflectiveOperationException {
        Module javaBase = Object.class.getModule();
        Module me = BootstrapInjector.class.getModule();
        inst.redefineModule(javaBase, Set.of(), Map.of("jdk.internal.misc", Set.of(me)), Map.of(), Set.of(), Map.of());
        if (names.isEmpty()) {
            return;
        }
        try {
            BootDefiner.defineAll(names, bytes);
            return;
        } catch (IllegalAccessError | NoSuchMethodError e) {
            // a JDK whose internal Unsafe differs: the reflective way below says what is wrong
            if (isDefined(names.get(0))) {
                throw e;
            }
        }
        Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
        Object unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
        Method define = unsafeType.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                ClassLoader.class, ProtectionDomain.class);
        // Supertypes of these classes are all JDK types, so any order resolves.
        for (int i = 0; i < names.size(); i++) {
            byte[] b = bytes.get(i);
            define.invoke(unsafe, names.get(i), b, 0, b.length, null, null);
        }
    }
}
