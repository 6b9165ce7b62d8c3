package dev.effectful.agent.bootstrap;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Where the one copy of the public API ({@code dev.effectful}, not its subpackages) lives.
 *
 * <p>Normally the agent jar is appended to the bootstrap search before the application loads any
 * API class, so every class loader's delegation reaches the bootstrap copy, including the
 * application's own {@code effectful-annotations} jar's loader, whose copy is then never defined.
 * Two cases already have a copy in an application loader when the agent starts, and there the agent
 * must use that copy, or the runtime's {@code Task}, {@code Attempt}, {@code Outcome} and
 * {@code ToolOutcomeException} would be strangers to the application's:
 * <ul>
 *   <li>the application runs as named modules and {@code effectful-annotations} is the module
 *       {@code dev.effectful} of the boot layer: the package belongs to that module's loader;</li>
 *   <li>API classes are already loaded in an application loader: the agent is attached to a running
 *       JVM, another {@code -javaagent} before this one loaded them, or a JDK 24+ AOT cache loaded
 *       them with the application's classes before any agent ran;</li>
 *   <li>a CDS archive ({@code -XX:SharedArchiveFile}, {@code -XX:AOTCache}) dumped without the agent
 *       holds API classes for the application loader: that loader's {@code findLoadedClass} takes
 *       them from the archive before it ever delegates to the bootstrap loader, so its copy would
 *       shadow the agent's and {@code Task.open} would be invisible to the runtime.</li>
 * </ul>
 */
final class ApiHome {

    static final String API_PACKAGE = "dev.effectful";

    private ApiHome() {
    }

    /** The application loader that owns the API, or null for the bootstrap copy. */
    static ClassLoader find(Instrumentation inst, boolean attached) {
        ClassLoader module = ModuleLayer.boot().findModule(API_PACKAGE).map(Module::getClassLoader).orElse(null);
        if (module != null) {
            return module;
        }
        ClassLoader loaded = loadedCopy(inst);
        if (loaded != null || attached) {
            return loaded;
        }
        return ArchivedApi.inUse(inst) ? ArchivedApi.home(inst) : null;
    }

    /** The loader of API classes loaded before this agent ran, the system loader first. */
    private static ClassLoader loadedCopy(Instrumentation inst) {
        ClassLoader found = null;
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader l = c.getClassLoader();
            if (l != null && isApi(c.getName())) {
                if (l == ClassLoader.getSystemClassLoader()) {
                    return l;
                }
                found = found == null ? l : found;
            }
        }
        return found;
    }

    /** True for a class of the API package itself (not of {@code dev.effectful.runtime} and the like). */
    static boolean isApi(String className) {
        return className.startsWith(API_PACKAGE + ".") && className.indexOf('.', API_PACKAGE.length() + 1) < 0;
    }

    /**
     * Defines every API class in {@code home} before the agent jar joins the bootstrap search: after
     * that, a class not yet loaded would be found by parent delegation in the bootstrap copy, and
     * one package split across two loaders is two packages to the JVM.
     */
    static void defineAllIn(ClassLoader home, File agentJar) throws IOException {
        for (String name : apiClassNames(agentJar)) {
            try {
                Class.forName(name, false, home);
            } catch (ClassNotFoundException | LinkageError absentFromTheApplicationsVersion) {
                // nothing the runtime uses is missing from a same-version jar; older ones are unsupported
            }
        }
    }

    static List<String> apiClassNames(File agentJar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(agentJar, false)) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                String n = entries.nextElement().getName();
                if (n.startsWith("dev/effectful/") && n.endsWith(".class") && n.indexOf('/', "dev/effectful/".length()) < 0) {
                    names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        return names;
    }
}
