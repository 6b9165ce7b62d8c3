package dev.effectful.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * What run.sh hands to {@link RunAll}: where things are and how long to measure.
 *
 * @param agentJar        agent/target/effectful-agent.jar
 * @param annotationsJar  the API jar the generated start-up application compiles against
 * @param jdk25Home       JDK 25 home for the start-up comparison; null when absent
 * @param out             bench/target: results.json, results.md and scratch directories go here
 * @param parts           which parts to run (per_call, startup, recovery, profile); empty = all
 * @param comparators     which per-call comparators to run; empty = all (for a partial rerun)
 */
record Settings(boolean quick, boolean profile, Path agentJar, Path annotationsJar, Path jdk25Home, Path out,
                List<String> parts, List<String> comparators) {

    /** What the JVMs without the agent need to use Chronicle (the agent grants this itself). */
    static final List<String> CHRONICLE_FLAGS = List.of(
            "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true");

    boolean wantsComparator(String name) {
        return comparators.isEmpty() || comparators.contains(name);
    }

    Path work() {
        return out.resolve("bench-work");
    }

    boolean wants(String part) {
        return parts.isEmpty() || parts.contains(part);
    }

    static Path java17() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
