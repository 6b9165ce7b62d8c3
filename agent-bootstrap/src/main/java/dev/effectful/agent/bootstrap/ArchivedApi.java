package dev.effectful.agent.bootstrap;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;

/**
 * Whether a class-data-sharing archive holds API classes for the application class loader.
 *
 * <p>An archive dumped without the agent (the JVM refuses to dump one with an agent, so Spring
 * Boot's documented CDS training run does exactly this) may hold {@code dev.effectful.Task} for the
 * application loader. That loader's {@code findLoadedClass} then loads it from the archive before it
 * delegates to its parent, so the application gets its own {@code Task} whatever the bootstrap loader
 * holds. {@code findLoadedClass} is the only question that gives the JVM's own answer, and asking it
 * takes a reflective call (some milliseconds on a cold JDK 18+), so it is asked only when the JVM was
 * started with an application archive.
 */
final class ArchivedApi {

    /** The JVM options that name an application archive (CDS, dynamic CDS, JDK 24+ AOT cache). */
    private static final String[] ARCHIVE_OPTIONS = {"-XX:SharedArchiveFile=", "-XX:AOTCache=", "-XX:+AutoCreateSharedArchive"};

    private ArchivedApi() {
    }

    /** True when the JVM's options (command line and environment) name an application archive. */
    static boolean inUse(Instrumentation inst) {
        // the same export premain grants for BootDefiner; this call links only after it
        inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.misc", Set.of(ArchivedApi.class.getModule())),
                Map.of(), Set.of(), Map.of());
        for (String arg : jdk.internal.misc.VM.getRuntimeArguments()) {
            for (String option : ARCHIVE_OPTIONS) {
                if (arg.startsWith(option)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The system loader when the archive holds any API class for it (each is then loaded from the
     * archive, which is what the application would do at its first use), else null. Any class at all:
     * the package must live in one loader, or the application's {@code Task} and the bootstrap
     * {@code Outcome} would be two runtime packages.
     */
    static ClassLoader home(Instrumentation inst) {
        ClassLoader app = ClassLoader.getSystemClassLoader();
        try {
            Module me = ArchivedApi.class.getModule();
            inst.redefineModule(Object.class.getModule(), Set.of(), Map.of(), Map.of("java.lang", Set.of(me)), Set.of(), Map.of());
            Method findLoaded = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
            findLoaded.setAccessible(true);
            for (String name : ApiHome.apiClassNames(IsolatedRuntime.agentJar())) {
                if (findLoaded.invoke(app, name) != null) {
                    return app;
                }
            }
            return null;
        } catch (Exception e) {
            // the question cannot be asked: the bootstrap copy stays, as without an archive
            System.err.println("effectful WARN: could not tell whether the class-data archive holds the effectful API ("
                    + e + "); if it does, Task.open is not seen: dump the archive with effectful-annotations off the class path");
            return null;
        }
    }
}
