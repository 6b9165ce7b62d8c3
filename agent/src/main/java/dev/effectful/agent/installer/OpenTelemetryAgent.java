package dev.effectful.agent.installer;

/**
 * The OpenTelemetry Java agent, when it was attached before Effectful: it loaded some executors
 * with fields of its own added, which a later retransformation (ours) cannot keep. Says how to
 * avoid that, in the message that reports it.
 */
final class OpenTelemetryAgent {

    private OpenTelemetryAgent() {
    }

    /** A sentence naming the fix when the OpenTelemetry agent runs here; else empty. */
    static String hint() {
        try {
            // its premain appends its jar to the boot class path, so this is visible from every loader
            Class.forName("io.opentelemetry.javaagent.bootstrap.AgentInitializer", false, null);
        } catch (ClassNotFoundException | LinkageError absent) {
            return "";
        }
        return "; the OpenTelemetry Java agent, attached before Effectful, loaded it with fields of its own that a"
                + " later rewrite cannot keep: put Effectful's -javaagent flag before the OpenTelemetry agent's";
    }
}
