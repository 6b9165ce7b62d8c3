package dev.effectful.agent.e2e;

/**
 * Lines the JVM itself prints that only a JVM flag can silence (listed in the README with the
 * flag). Anything else on stderr at a normal start is a defect.
 */
final class JvmWarnings {

    private JvmWarnings() {
    }

    static boolean isJvmFlagWarning(Jdk jdk, String line) {
        if (line.isBlank()) {
            return true;
        }
        // CDS is limited to boot classes once a jar is appended to the bootstrap search (all JDKs).
        if (line.contains("Sharing is only supported for boot loader classes because bootstrap classpath has been appended")) {
            return true;
        }
        // JDK 24+: no sun.misc.Unsafe lines either: the agent marks that one-time warning as given
        // before Chronicle's first use (UnsafeWarning), and no native-access lines, as it loads no
        // native library (NoNativeCodeIT). Any such line is a defect.
        return false;
    }

    /** JDK 21+ after {@code attach}: silenced by starting the target with -XX:+EnableDynamicAgentLoading. */
    static boolean isDynamicAgentWarning(String line) {
        return line.startsWith("WARNING: A Java agent has been loaded dynamically")
                || line.startsWith("WARNING: If a serviceability tool is")
                || line.startsWith("WARNING: Dynamic loading of agents will be disallowed");
    }
}
