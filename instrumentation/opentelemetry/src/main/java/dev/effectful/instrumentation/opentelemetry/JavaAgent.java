package dev.effectful.instrumentation.opentelemetry;

/**
 * Whether the OpenTelemetry Java agent runs in this JVM. Its {@code GlobalOpenTelemetry.get()}
 * answers the agent's SDK whatever the application did, so it is safe to ask even when the
 * application's own {@code isSet()} says false (the agent bridges {@code get}, not that flag).
 */
final class JavaAgent {

    private static final boolean PRESENT = find();

    private JavaAgent() {
    }

    static boolean present() {
        return PRESENT;
    }

    private static boolean find() {
        try {
            // the agent appends its bootstrap part to the boot class path: visible from every loader
            Class.forName("io.opentelemetry.javaagent.bootstrap.AgentInitializer", false, null);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
