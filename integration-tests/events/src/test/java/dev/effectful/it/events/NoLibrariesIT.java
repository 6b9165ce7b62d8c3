package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.events.apps.PlainApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with neither OpenTelemetry nor Micrometer: no class of either is loaded (the
 * JVM's own class-load log says so), no sink of ours is defined, and nothing is printed but the held
 * intent's one warning.
 */
class NoLibrariesIT {

    @TempDir
    Path dir;

    @Test
    void nothingOfEitherLibraryLoadsAndNothingIsPrinted() throws Exception {
        Path classes = dir.resolve("classes.txt");
        ForkedApp app = Classpaths.plainAppWithoutLibraries(dir, "-Xlog:class+load=info:file=" + classes + ":uptime,tid,tags");
        assertThat(app.results()).containsEntry("new", "sent:ord-1").containsEntry("probed", "paged:bob");

        String loaded = Files.readString(classes);
        assertThat(loaded).contains("dev.effectful.runtime.events.Events"); // the log is the real one
        assertThat(loaded).doesNotContain("io.opentelemetry").doesNotContain("io.micrometer")
                .doesNotContain("dev.effectful.instrumentation.opentelemetry.OpenTelemetrySink ")
                .doesNotContain("dev.effectful.instrumentation.micrometer.MicrometerSink ");
        assertThat(app.stdout().lines()).allMatch(l -> l.startsWith("RESULT ") || l.equals("DONE"));
        // the scenario's held intent (notify_customer: unknown, no probe) is the agent's only line: a warning,
        // on stderr as this application has no SLF4J
        assertThat(app.stderr().lines()).singleElement().asString()
                .startsWith("effectful WARN: effectful held call=notify_customer task=plain-task ");
        // of the library instrumentations only their name lists (the ServiceLoader providers) are loaded:
        // no advice, no shape check, nothing of a library this application does not have
        assertThat(loaded.lines().map(NoLibrariesIT::loadedClass)
                .filter(c -> c.startsWith("dev.effectful.instrumentation.") && !c.startsWith("dev.effectful.instrumentation.api.")))
                .isNotEmpty()
                .map(c -> c.contains("$") ? c.substring(0, c.indexOf('$')) : c) // a provider's own constants and lambdas
                .allMatch(c -> c.endsWith("Instrumentation") || c.endsWith("SinkProvider"));
        // premain runs on the thread that then runs main: nothing of Byte Buddy may load there before main
        // (a static matcher in an instrumentation once did, ~20 ms on every application's start)
        java.util.List<String> lines = loaded.lines().toList();
        int mainAt = indexOf(lines, PlainApp.class.getName());
        assertThat(mainAt).as("the main class in the class-load log").isPositive();
        String mainThread = threadOf(lines.get(mainAt));
        assertThat(lines.subList(0, mainAt)).filteredOn(l -> threadOf(l).equals(mainThread))
                .map(NoLibrariesIT::loadedClass) // linking may name an interface or two; using Byte Buddy loads these
                .noneMatch(c -> c.equals("net.bytebuddy.matcher.ElementMatchers") || c.startsWith("net.bytebuddy.description.")
                        || c.startsWith("net.bytebuddy.asm.Advice"));
    }

    private static int indexOf(java.util.List<String> lines, String className) {
        for (int i = 0; i < lines.size(); i++) {
            if (loadedClass(lines.get(i)).equals(className)) {
                return i;
            }
        }
        return -1;
    }

    /** The thread id of a {@code [uptime][tid][class,load]} line. */
    private static String threadOf(String line) {
        String[] parts = line.split("\\]\\[", 3);
        return parts.length < 3 ? "" : parts[1];
    }

    /** The class name of a {@code -Xlog:class+load} line ({@code [..][info][class,load] NAME source: ...}). */
    private static String loadedClass(String line) {
        int at = line.indexOf("[class,load] ");
        if (at < 0) {
            return "";
        }
        String rest = line.substring(at + "[class,load] ".length());
        int space = rest.indexOf(' ');
        return space < 0 ? rest : rest.substring(0, space);
    }
}
