package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.it.events.apps.PlainApp;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The forked apps' class path, less the jars of libraries a test's application must not have; the app run so. */
final class Classpaths {

    private Classpaths() {
    }

    static String without(String... jarNameParts) {
        String all = System.getProperty("effectful.test.classpath");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> Arrays.stream(jarNameParts).noneMatch(p -> new File(e).getName().contains(p)))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * {@link PlainApp} run to its end with neither OpenTelemetry nor Micrometer on its class path and the JVM
     * flag {@code jvmArg}: its journal, marks and logs under {@code dir}.
     */
    static ForkedApp plainAppWithoutLibraries(Path dir, String jvmArg) throws Exception {
        return ForkedApp.jdk(Jdk.current()).sysprop("effectful.journal.dir", dir.resolve("journal"))
                .jvmArg(jvmArg)
                .classPath(without("opentelemetry", "micrometer"))
                .main(PlainApp.class, Files.createDirectories(dir.resolve("marks")).toString())
                .run(dir.resolve("logs"), Duration.ofSeconds(90));
    }
}
