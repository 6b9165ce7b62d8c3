package dev.effectful.agent.integration;

import dev.effectful.instrumentation.api.LibraryInstrumentation;
import dev.effectful.core.log.AgentLog;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Every library instrumentation bundled in the agent ({@code instrumentation/<library>}), found with
 * {@link ServiceLoader} in the agent's own loader, indexed by the classes they rewrite. Building it
 * reads each instrumentation's name set and nothing more: the advice is asked for only when one of
 * those classes loads.
 */
public final class Instrumentations {

    private final Map<String, LibraryInstrumentation> byClass = new HashMap<>();

    private Instrumentations() {
    }

    /** The instrumentations visible to {@code loader} (the agent's own). */
    public static Instrumentations load(ClassLoader loader) {
        Instrumentations all = new Instrumentations();
        for (LibraryInstrumentation i : ServiceLoader.load(LibraryInstrumentation.class, loader)) {
            for (String c : i.classes()) {
                LibraryInstrumentation before = all.byClass.putIfAbsent(c, i);
                if (before != null) {
                    AgentLog.warn("effectful: " + c.replace('/', '.') + " is instrumented for both " + before.library()
                            + " and " + i.library() + "; only " + before.library() + " applies");
                }
            }
        }
        return all;
    }

    /** Whether a loaded class is one an instrumentation rewrites: a map lookup. */
    public boolean rewrites(String internalName) {
        return byClass.containsKey(internalName);
    }

    /** The instrumentation of {@code internalName}, if any. */
    public Optional<LibraryInstrumentation> of(String internalName) {
        return Optional.ofNullable(byClass.get(internalName));
    }

    /** The entry calls for a class (woven without Byte Buddy's pipeline); empty when it has none. */
    public List<dev.effectful.instrumentation.api.EntryCall> entryCalls(String internalName) {
        LibraryInstrumentation i = byClass.get(internalName);
        return i == null ? List.of() : i.entryCalls(internalName);
    }

    /** The advice for a class; empty when no instrumentation knows it. */
    public List<AsmVisitorWrapper> advice(String internalName) {
        LibraryInstrumentation i = byClass.get(internalName);
        return i == null ? List.of() : i.advice(internalName);
    }
}
