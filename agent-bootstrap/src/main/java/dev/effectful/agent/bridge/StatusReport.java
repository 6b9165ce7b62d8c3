package dev.effectful.agent.bridge;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Where {@code dev.effectful.AgentStatus} reads the agent's state from: the API finds this class by name in
 * the bootstrap loader (its absence means no agent) and calls {@link #snapshot()} through a method handle.
 * Like {@link Bridge}, it holds nothing but what the agent installs; only JDK types cross it (a map of
 * strings, numbers, booleans and lists of such maps), so the API needs no class of the agent's.
 */
public final class StatusReport {

    private static volatile Supplier<Map<String, Object>> source;

    private StatusReport() {
    }

    /** Installs the agent's side; called once by the agent. */
    public static void install(Supplier<Map<String, Object>> s) {
        source = s;
    }

    /** The agent's state as the API reads it; null before the agent installed its side. */
    public static Map<String, Object> snapshot() {
        Supplier<Map<String, Object>> s = source;
        return s == null ? null : s.get();
    }
}
